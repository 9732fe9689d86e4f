CREATE TABLE `pending_sign_ups` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`created_at` integer NOT NULL
);
