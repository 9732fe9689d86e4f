CREATE TABLE `conversation_message_files` (
	`message_id` text NOT NULL,
	`file_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`message_id`, `file_id`),
	FOREIGN KEY (`message_id`) REFERENCES `conversation_messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversation_message_files_file_idx` ON `conversation_message_files` (`file_id`);--> statement-breakpoint
CREATE TABLE `conversation_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`conversation_id` text NOT NULL,
	`author_member_id` text,
	`from_participant` integer NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `conversation_messages_list_idx` ON `conversation_messages` (`conversation_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `conversation_messages_author_idx` ON `conversation_messages` (`author_member_id`);--> statement-breakpoint
CREATE TABLE `conversation_reads` (
	`conversation_id` text NOT NULL,
	`member_id` text NOT NULL,
	`read_at` integer NOT NULL,
	`read_id` text NOT NULL,
	PRIMARY KEY(`conversation_id`, `member_id`),
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversation_reads_member_idx` ON `conversation_reads` (`member_id`);--> statement-breakpoint
CREATE TABLE `conversations` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`participant_member_id` text NOT NULL,
	`last_message_at` integer NOT NULL,
	`last_preview` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`participant_member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `conversations_participant_idx` ON `conversations` (`space_id`,`participant_member_id`);--> statement-breakpoint
CREATE INDEX `conversations_list_idx` ON `conversations` (`space_id`,`last_message_at`,`id`);--> statement-breakpoint
CREATE INDEX `conversations_member_idx` ON `conversations` (`participant_member_id`);--> statement-breakpoint
CREATE TABLE `post_comment_files` (
	`comment_id` text NOT NULL,
	`file_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`comment_id`, `file_id`),
	FOREIGN KEY (`comment_id`) REFERENCES `post_comments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `post_comment_files_file_idx` ON `post_comment_files` (`file_id`);--> statement-breakpoint
CREATE TABLE `post_comments` (
	`id` text PRIMARY KEY NOT NULL,
	`post_id` text NOT NULL,
	`author_member_id` text,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`post_id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `post_comments_list_idx` ON `post_comments` (`post_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `post_comments_author_idx` ON `post_comments` (`author_member_id`);--> statement-breakpoint
ALTER TABLE `posts` ADD `answered_comment_id` text;--> statement-breakpoint
ALTER TABLE `posts` ADD `is_answered` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `posts_answered_list_idx` ON `posts` (`type`,`is_answered`,`is_pinned`,`publish_at`,`id`);--> statement-breakpoint
CREATE INDEX `posts_space_answered_list_idx` ON `posts` (`space_id`,`type`,`is_answered`,`is_pinned`,`publish_at`,`id`);