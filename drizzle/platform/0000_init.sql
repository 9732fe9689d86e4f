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
CREATE UNIQUE INDEX `tenants_key_unique` ON `tenants` (`key`);