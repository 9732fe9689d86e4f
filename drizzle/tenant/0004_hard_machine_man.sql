CREATE TABLE `similarity_checks` (
	`submission_id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`content_id` text NOT NULL,
	`owner_id` text NOT NULL,
	`display_name` text,
	`status` text NOT NULL,
	`body` text,
	`file_ids` text NOT NULL,
	`fingerprint_count` integer,
	`created_at` integer NOT NULL,
	`checked_at` integer,
	FOREIGN KEY (`content_id`) REFERENCES `library_contents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `similarity_checks_status_idx` ON `similarity_checks` (`status`);--> statement-breakpoint
CREATE INDEX `similarity_checks_owner_idx` ON `similarity_checks` (`content_id`,`owner_id`,`submission_id`);--> statement-breakpoint
CREATE TABLE `similarity_fingerprints` (
	`content_id` text NOT NULL,
	`hash` integer NOT NULL,
	`submission_id` text NOT NULL,
	PRIMARY KEY(`content_id`, `hash`, `submission_id`),
	FOREIGN KEY (`submission_id`) REFERENCES `similarity_checks`(`submission_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `similarity_fingerprints_submission_idx` ON `similarity_fingerprints` (`submission_id`);--> statement-breakpoint
CREATE TABLE `similarity_pairs` (
	`submission_id` text NOT NULL,
	`other_id` text NOT NULL,
	`ratio` real NOT NULL,
	PRIMARY KEY(`submission_id`, `other_id`),
	FOREIGN KEY (`submission_id`) REFERENCES `similarity_checks`(`submission_id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`other_id`) REFERENCES `similarity_checks`(`submission_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `similarity_pairs_ratio_idx` ON `similarity_pairs` (`submission_id`,`ratio`);--> statement-breakpoint
CREATE INDEX `similarity_pairs_other_idx` ON `similarity_pairs` (`other_id`);