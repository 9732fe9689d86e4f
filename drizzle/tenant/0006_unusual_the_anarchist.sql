CREATE TABLE `notification_jobs` (
	`kind` text NOT NULL,
	`record_id` text NOT NULL,
	`param` text,
	`fire_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_jobs_record_idx` ON `notification_jobs` (`record_id`,`kind`);--> statement-breakpoint
CREATE INDEX `notification_jobs_fire_idx` ON `notification_jobs` (`fire_at`);--> statement-breakpoint
CREATE TABLE `notification_settings` (
	`member_id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`digest_hour` integer NOT NULL,
	`kinds` text NOT NULL,
	`language` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`member_id` text NOT NULL,
	`kind` text NOT NULL,
	`space_id` text,
	`record_type` text NOT NULL,
	`record_id` text NOT NULL,
	`title_ko` text NOT NULL,
	`title_en` text NOT NULL,
	`body_preview` text NOT NULL,
	`url` text NOT NULL,
	`dedupe_key` text NOT NULL,
	`created_at` integer NOT NULL,
	`read_at` integer,
	`mail_at` integer,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_member_dedupe_idx` ON `notifications` (`member_id`,`dedupe_key`);--> statement-breakpoint
CREATE INDEX `notifications_member_list_idx` ON `notifications` (`member_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `notifications_member_unread_idx` ON `notifications` (`member_id`,`created_at`,`id`) WHERE read_at IS NULL;--> statement-breakpoint
CREATE INDEX `notifications_mail_idx` ON `notifications` (`mail_at`,`member_id`) WHERE mail_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `notifications_created_idx` ON `notifications` (`created_at`);--> statement-breakpoint
ALTER TABLE `tenant_settings` ADD `time_zone` text DEFAULT 'Asia/Seoul' NOT NULL;