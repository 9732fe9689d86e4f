CREATE TABLE `similarity_checks` (
	`seq` integer PRIMARY KEY NOT NULL,
	`submission_id` text NOT NULL,
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
CREATE UNIQUE INDEX `similarity_checks_submission_id_unique` ON `similarity_checks` (`submission_id`);--> statement-breakpoint
CREATE INDEX `similarity_checks_status_idx` ON `similarity_checks` (`status`);--> statement-breakpoint
CREATE INDEX `similarity_checks_owner_idx` ON `similarity_checks` (`content_id`,`owner_id`,`seq`);--> statement-breakpoint
CREATE TABLE `similarity_fingerprints` (
	`hash` integer NOT NULL,
	`check_seq` integer NOT NULL,
	PRIMARY KEY(`hash`, `check_seq`),
	FOREIGN KEY (`check_seq`) REFERENCES `similarity_checks`(`seq`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `similarity_fingerprints_check_idx` ON `similarity_fingerprints` (`check_seq`);--> statement-breakpoint
CREATE TABLE `similarity_pairs` (
	`check_seq` integer NOT NULL,
	`other_seq` integer NOT NULL,
	`ratio` real NOT NULL,
	PRIMARY KEY(`check_seq`, `other_seq`),
	FOREIGN KEY (`check_seq`) REFERENCES `similarity_checks`(`seq`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`other_seq`) REFERENCES `similarity_checks`(`seq`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `similarity_pairs_ratio_idx` ON `similarity_pairs` (`check_seq`,`ratio`);--> statement-breakpoint
CREATE INDEX `similarity_pairs_other_idx` ON `similarity_pairs` (`other_seq`);