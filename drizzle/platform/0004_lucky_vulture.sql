CREATE TABLE `notification_wakeups` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`wake_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `notification_wakeups_wake_idx` ON `notification_wakeups` (`wake_at`);