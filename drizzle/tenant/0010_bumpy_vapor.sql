CREATE INDEX `notifications_record_idx` ON `notifications` (`record_type`,`record_id`);--> statement-breakpoint
CREATE INDEX `notifications_space_idx` ON `notifications` (`space_id`);