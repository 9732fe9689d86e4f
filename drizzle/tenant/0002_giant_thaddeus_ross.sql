CREATE TABLE `space_enrollment_events` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`member_id` text NOT NULL,
	`event` text NOT NULL,
	`role` text NOT NULL,
	`at` integer NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `space_enrollment_events_list_idx` ON `space_enrollment_events` (`space_id`,`at`,`id`);--> statement-breakpoint
CREATE INDEX `space_enrollment_events_member_idx` ON `space_enrollment_events` (`member_id`);--> statement-breakpoint
-- Carry over the ended enrolments recorded before events existed: each as its JOINED and its end.
INSERT INTO `space_enrollment_events` (`id`, `space_id`, `member_id`, `event`, `role`, `at`)
SELECT lower(hex(randomblob(16))), `space_id`, `member_id`, 'JOINED', `role`, `joined_at` FROM `space_enrollment_history`;--> statement-breakpoint
INSERT INTO `space_enrollment_events` (`id`, `space_id`, `member_id`, `event`, `role`, `at`)
SELECT lower(hex(randomblob(16))), `space_id`, `member_id`, `reason`, `role`, `left_at` FROM `space_enrollment_history`;
