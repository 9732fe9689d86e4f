CREATE TABLE `member_guardians` (
	`student_id` text NOT NULL,
	`guardian_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`student_id`, `guardian_id`),
	FOREIGN KEY (`student_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`guardian_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `member_guardians_guardian_idx` ON `member_guardians` (`guardian_id`,`student_id`);