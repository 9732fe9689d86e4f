CREATE TABLE `external_links` (
	`provider` text NOT NULL,
	`subject` text NOT NULL,
	`member_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`provider`, `subject`)
);
--> statement-breakpoint
CREATE INDEX `external_links_member_idx` ON `external_links` (`member_id`);