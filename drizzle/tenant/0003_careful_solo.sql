CREATE TABLE `assignment_extensions` (
	`content_id` text NOT NULL,
	`profile_id` text NOT NULL,
	`due_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`content_id`, `profile_id`),
	FOREIGN KEY (`content_id`) REFERENCES `library_contents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `quiz_attempts` ADD `voided_at` integer;--> statement-breakpoint
ALTER TABLE `quiz_configs` ADD `opens_at` integer;--> statement-breakpoint
ALTER TABLE `quiz_configs` ADD `closes_at` integer;--> statement-breakpoint
ALTER TABLE `survey_configs` ADD `opens_at` integer;--> statement-breakpoint
ALTER TABLE `survey_configs` ADD `closes_at` integer;