CREATE TABLE `grade_column_scores` (
	`column_id` text NOT NULL,
	`profile_id` text NOT NULL,
	`score` real NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`column_id`, `profile_id`),
	FOREIGN KEY (`column_id`) REFERENCES `grade_columns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `grade_columns` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`title` text NOT NULL,
	`max_score` real NOT NULL,
	`weight` real NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `grade_columns_space_idx` ON `grade_columns` (`space_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `gradebook_weights` (
	`content_id` text PRIMARY KEY NOT NULL,
	`weight` real NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`content_id`) REFERENCES `library_contents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `group_assignment_extensions` (
	`content_id` text NOT NULL,
	`group_id` text NOT NULL,
	`due_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`content_id`, `group_id`),
	FOREIGN KEY (`content_id`) REFERENCES `library_contents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `quiz_overrides` (
	`content_id` text NOT NULL,
	`profile_id` text NOT NULL,
	`opens_at` integer,
	`closes_at` integer,
	`time_limit_min` integer,
	`max_attempts` integer,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`content_id`, `profile_id`),
	FOREIGN KEY (`content_id`) REFERENCES `library_contents`(`id`) ON UPDATE no action ON DELETE cascade
);
