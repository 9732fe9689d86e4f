CREATE TABLE `similarity_tenants` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`pending` integer NOT NULL,
	`backfilled_at` integer
);
