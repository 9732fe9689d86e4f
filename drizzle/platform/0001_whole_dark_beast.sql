CREATE TABLE `oidc_states` (
	`state` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`tenant_id` text,
	`return_to` text NOT NULL,
	`session_type` text,
	`nonce` text NOT NULL,
	`code_verifier` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `oidc_states_expires_idx` ON `oidc_states` (`expires_at`);