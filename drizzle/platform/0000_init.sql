CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text,
	`email` text NOT NULL,
	`tenant_id` text,
	`member_id` text,
	`session_type` text NOT NULL,
	`confirmed` integer DEFAULT false NOT NULL,
	`refresh_hash` text NOT NULL,
	`previous_refresh_hash` text,
	`created_at` integer NOT NULL,
	`last_used_at` integer NOT NULL,
	`absolute_expires_at` integer NOT NULL,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE INDEX `sessions_refresh_idx` ON `sessions` (`refresh_hash`);--> statement-breakpoint
CREATE INDEX `sessions_previous_refresh_idx` ON `sessions` (`previous_refresh_hash`);--> statement-breakpoint
CREATE INDEX `sessions_email_idx` ON `sessions` (`email`);--> statement-breakpoint
CREATE INDEX `sessions_member_idx` ON `sessions` (`tenant_id`,`member_id`);--> statement-breakpoint
CREATE TABLE `directory` (
	`email` text NOT NULL,
	`tenant_id` text NOT NULL,
	`member_id` text NOT NULL,
	PRIMARY KEY(`email`, `tenant_id`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `directory_tenant_idx` ON `directory` (`tenant_id`);--> statement-breakpoint
CREATE TABLE `tenants` (
	`id` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`owner_email` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tenants_key_unique` ON `tenants` (`key`);--> statement-breakpoint
CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`display_name` text NOT NULL,
	`password_hash` text,
	`sign_up_tenant_id` text,
	`verified_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_email_idx` ON `accounts` (`email`);--> statement-breakpoint
CREATE TABLE `one_time_codes` (
	`email` text NOT NULL,
	`purpose` text NOT NULL,
	`scope` text NOT NULL,
	`code_hash` text,
	`failed_tries` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`resend_available_at` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `one_time_codes_key_idx` ON `one_time_codes` (`email`,`purpose`,`scope`);--> statement-breakpoint
CREATE INDEX `one_time_codes_expires_idx` ON `one_time_codes` (`expires_at`);--> statement-breakpoint
CREATE TABLE `rotated_refresh_tokens` (
	`hash` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`rotated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rotated_refresh_tokens_session_idx` ON `rotated_refresh_tokens` (`session_id`);--> statement-breakpoint
CREATE INDEX `rotated_refresh_tokens_rotated_idx` ON `rotated_refresh_tokens` (`rotated_at`);--> statement-breakpoint
CREATE TABLE `platform_term_consents` (
	`id` text PRIMARY KEY NOT NULL,
	`subject` text NOT NULL,
	`topic` text NOT NULL,
	`version` integer NOT NULL,
	`is_essential` integer NOT NULL,
	`agreed_at` integer NOT NULL,
	`expires_at` integer,
	`withdrawn_at` integer
);
--> statement-breakpoint
CREATE INDEX `platform_term_consents_subject_idx` ON `platform_term_consents` (`subject`,`topic`,`agreed_at`);--> statement-breakpoint
CREATE INDEX `platform_term_consents_topic_idx` ON `platform_term_consents` (`topic`,`version`);--> statement-breakpoint
CREATE TABLE `platform_term_topics` (
	`topic` text PRIMARY KEY NOT NULL,
	`current_version` integer NOT NULL,
	`latest_version` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `platform_term_versions` (
	`topic` text NOT NULL,
	`version` integer NOT NULL,
	`is_essential` integer NOT NULL,
	`is_visible` integer NOT NULL,
	`sort_order` integer NOT NULL,
	`title_ko` text NOT NULL,
	`title_en` text NOT NULL,
	`document_url_ko` text NOT NULL,
	`document_url_en` text NOT NULL,
	`consent_ttl_days` integer,
	`is_active` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`topic`, `version`)
);
