CREATE TABLE `grant_subjects` (
	`code` text NOT NULL,
	`subject_type` text NOT NULL,
	`subject_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`code`, `subject_type`, `subject_id`)
);
--> statement-breakpoint
CREATE INDEX `grant_subjects_subject_idx` ON `grant_subjects` (`subject_type`,`subject_id`);--> statement-breakpoint
CREATE TABLE `grants` (
	`code` text PRIMARY KEY NOT NULL,
	`all_enabled` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE `group_members` (
	`group_id` text NOT NULL,
	`member_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`group_id`, `member_id`),
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `group_members_member_idx` ON `group_members` (`member_id`);--> statement-breakpoint
CREATE TABLE `groups` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `groups_kind_name_idx` ON `groups` (`kind`,`name`,`id`);--> statement-breakpoint
CREATE TABLE `members` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`user_id_key` text,
	`email` text,
	`display_name` text NOT NULL,
	`role_id` text NOT NULL,
	`password_hash` text,
	`is_active` integer DEFAULT true NOT NULL,
	`is_issued_account` integer DEFAULT false NOT NULL,
	`must_change_password` integer DEFAULT false NOT NULL,
	`last_login_at` integer,
	`picture_url` text,
	`affiliation` text,
	`external_member_code` text,
	`bio` text,
	`position_id` text,
	`failed_logins` integer DEFAULT 0 NOT NULL,
	`locked_until` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`role_id`) REFERENCES `roles`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `members_user_id_key_idx` ON `members` (`user_id_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `members_email_idx` ON `members` (`email`);--> statement-breakpoint
CREATE INDEX `members_created_idx` ON `members` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `members_role_idx` ON `members` (`role_id`);--> statement-breakpoint
CREATE INDEX `members_display_name_idx` ON `members` (`display_name`,`id`);--> statement-breakpoint
CREATE TABLE `profiles` (
	`id` text PRIMARY KEY NOT NULL,
	`member_id` text NOT NULL,
	`is_main` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `profiles_member_idx` ON `profiles` (`member_id`);--> statement-breakpoint
CREATE TABLE `roles` (
	`id` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`is_builtin` integer DEFAULT false NOT NULL,
	`permissions` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `roles_key_unique` ON `roles` (`key`);--> statement-breakpoint
CREATE TABLE `tenant_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`contact_info` text,
	`logo_image_url` text,
	`default_session_type` text DEFAULT 'personal' NOT NULL,
	`public_absolute_timeout_minutes` integer DEFAULT 480 NOT NULL,
	`allow_user_self_sign_up` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
