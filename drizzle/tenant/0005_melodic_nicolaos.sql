CREATE TABLE `similarity_prints` (
	`check_seq` integer PRIMARY KEY NOT NULL,
	`content_id` text NOT NULL,
	`hashes` blob NOT NULL,
	FOREIGN KEY (`check_seq`) REFERENCES `similarity_checks`(`seq`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `similarity_prints_content_idx` ON `similarity_prints` (`content_id`,`check_seq`);