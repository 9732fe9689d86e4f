CREATE TABLE `assignment_configs` (
	`content_id` text PRIMARY KEY NOT NULL,
	`max_score` integer,
	`allow_late_submit` integer DEFAULT false NOT NULL,
	`allow_resubmit` integer DEFAULT false NOT NULL,
	`body_required` integer DEFAULT false NOT NULL,
	`file_required` integer DEFAULT false NOT NULL,
	`due_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`content_id`) REFERENCES `library_contents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `assignment_rubrics` (
	`content_id` text PRIMARY KEY NOT NULL,
	`use_level` integer NOT NULL,
	`visibility` text NOT NULL,
	`criteria` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`content_id`) REFERENCES `library_contents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `assignment_submission_files` (
	`submission_id` text NOT NULL,
	`file_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`submission_id`, `file_id`),
	FOREIGN KEY (`submission_id`) REFERENCES `assignment_submissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `assignment_submission_files_file_idx` ON `assignment_submission_files` (`file_id`);--> statement-breakpoint
CREATE TABLE `assignment_submissions` (
	`id` text PRIMARY KEY NOT NULL,
	`content_id` text NOT NULL,
	`profile_id` text NOT NULL,
	`revision` integer NOT NULL,
	`is_latest` integer NOT NULL,
	`body` text,
	`status` text NOT NULL,
	`submitted_at` integer NOT NULL,
	`due_at_at_submit` integer,
	`is_late` integer NOT NULL,
	`score` integer,
	`feedback` text,
	`graded_at` integer,
	`returned_at` integer,
	`rubric_items` text,
	FOREIGN KEY (`content_id`) REFERENCES `library_contents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `assignment_submissions_submitter_idx` ON `assignment_submissions` (`content_id`,`profile_id`,`revision`);--> statement-breakpoint
CREATE INDEX `assignment_submissions_latest_idx` ON `assignment_submissions` (`content_id`,`is_latest`,`submitted_at`,`id`);--> statement-breakpoint
CREATE INDEX `assignment_submissions_latest_status_idx` ON `assignment_submissions` (`content_id`,`is_latest`,`status`,`submitted_at`,`id`);--> statement-breakpoint
CREATE TABLE `challenge_completions` (
	`challenge_id` text NOT NULL,
	`member_id` text NOT NULL,
	`task_id` text NOT NULL,
	`completed_at` integer NOT NULL,
	PRIMARY KEY(`challenge_id`, `member_id`, `task_id`),
	FOREIGN KEY (`challenge_id`) REFERENCES `challenges`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`task_id`) REFERENCES `challenge_tasks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `challenge_completions_task_idx` ON `challenge_completions` (`task_id`,`member_id`);--> statement-breakpoint
CREATE INDEX `challenge_completions_member_idx` ON `challenge_completions` (`member_id`);--> statement-breakpoint
CREATE TABLE `challenge_files` (
	`challenge_id` text NOT NULL,
	`file_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`challenge_id`, `file_id`),
	FOREIGN KEY (`challenge_id`) REFERENCES `challenges`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `challenge_files_file_idx` ON `challenge_files` (`file_id`);--> statement-breakpoint
CREATE TABLE `challenge_members` (
	`challenge_id` text NOT NULL,
	`member_id` text NOT NULL,
	`joined_at` integer NOT NULL,
	PRIMARY KEY(`challenge_id`, `member_id`),
	FOREIGN KEY (`challenge_id`) REFERENCES `challenges`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `challenge_members_list_idx` ON `challenge_members` (`challenge_id`,`joined_at`,`member_id`);--> statement-breakpoint
CREATE INDEX `challenge_members_member_idx` ON `challenge_members` (`member_id`,`challenge_id`);--> statement-breakpoint
CREATE TABLE `challenge_tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`challenge_id` text NOT NULL,
	`title` text NOT NULL,
	`guide` text,
	`type` text NOT NULL,
	`index` integer NOT NULL,
	`started_at` integer NOT NULL,
	`deadline` integer,
	`target_content_id` text,
	`default_tags` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`challenge_id`) REFERENCES `challenges`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`target_content_id`) REFERENCES `library_contents`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `challenge_tasks_challenge_idx` ON `challenge_tasks` (`challenge_id`,`index`);--> statement-breakpoint
CREATE INDEX `challenge_tasks_target_idx` ON `challenge_tasks` (`target_content_id`);--> statement-breakpoint
CREATE TABLE `challenges` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`author_member_id` text,
	`is_written_by_admin` integer NOT NULL,
	`title` text NOT NULL,
	`emoji` text NOT NULL,
	`body` text DEFAULT '' NOT NULL,
	`reminder_minutes` text NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `challenges_space_created_idx` ON `challenges` (`space_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `challenges_author_idx` ON `challenges` (`author_member_id`);--> statement-breakpoint
CREATE TABLE `custom_fields` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`key` text NOT NULL,
	`label` text NOT NULL,
	`type` text NOT NULL,
	`options` text NOT NULL,
	`required` integer DEFAULT false NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`position` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `custom_fields_kind_key_idx` ON `custom_fields` (`kind`,`key`);--> statement-breakpoint
CREATE INDEX `custom_fields_kind_position_idx` ON `custom_fields` (`kind`,`position`,`id`);--> statement-breakpoint
CREATE TABLE `member_field_display` (
	`id` integer PRIMARY KEY NOT NULL,
	`entries` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `space_field_values` (
	`space_id` text NOT NULL,
	`field_id` text NOT NULL,
	`value_text` text,
	`value_number` real,
	`value_date` integer,
	PRIMARY KEY(`space_id`, `field_id`),
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`field_id`) REFERENCES `custom_fields`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `files` (
	`id` text PRIMARY KEY NOT NULL,
	`uploader_member_id` text NOT NULL,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`ready_at` integer
);
--> statement-breakpoint
CREATE INDEX `files_uploader_idx` ON `files` (`uploader_member_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `grant_subjects` (
	`code` text NOT NULL,
	`subject_type` text NOT NULL,
	`subject_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`code`, `subject_type`, `subject_id`)
);
--> statement-breakpoint
CREATE INDEX `grant_subjects_subject_idx` ON `grant_subjects` (`subject_type`,`subject_id`);--> statement-breakpoint
CREATE TABLE `grants` (
	`code` text PRIMARY KEY NOT NULL,
	`all_enabled` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE `group_assignment_configs` (
	`content_id` text PRIMARY KEY NOT NULL,
	`space_group_set_id` text,
	`space_group_set_name` text,
	`link_invalid_reason` text,
	`max_score` integer,
	`allow_late_submit` integer DEFAULT false NOT NULL,
	`submission_method` text DEFAULT 'ANY_MEMBER' NOT NULL,
	`body_required` integer DEFAULT false NOT NULL,
	`file_required` integer DEFAULT false NOT NULL,
	`due_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`content_id`) REFERENCES `library_contents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `group_assignment_configs_set_idx` ON `group_assignment_configs` (`space_group_set_id`);--> statement-breakpoint
CREATE TABLE `group_member_scores` (
	`submission_id` text NOT NULL,
	`profile_id` text NOT NULL,
	`score` integer NOT NULL,
	PRIMARY KEY(`submission_id`, `profile_id`),
	FOREIGN KEY (`submission_id`) REFERENCES `group_submissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `group_submission_files` (
	`submission_id` text NOT NULL,
	`file_id` text NOT NULL,
	PRIMARY KEY(`submission_id`, `file_id`),
	FOREIGN KEY (`submission_id`) REFERENCES `group_submissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `group_submission_files_file_idx` ON `group_submission_files` (`file_id`);--> statement-breakpoint
CREATE TABLE `group_submissions` (
	`id` text PRIMARY KEY NOT NULL,
	`content_id` text NOT NULL,
	`group_id` text NOT NULL,
	`group_name` text NOT NULL,
	`submitter_member_id` text NOT NULL,
	`submitter_name` text NOT NULL,
	`revision` integer NOT NULL,
	`is_latest` integer NOT NULL,
	`body` text NOT NULL,
	`file_ids` text NOT NULL,
	`status` text NOT NULL,
	`submitted_at` integer NOT NULL,
	`due_at_at_submit` integer,
	`is_late` integer NOT NULL,
	`score` integer,
	`feedback` text,
	`graded_at` integer,
	`returned_at` integer,
	FOREIGN KEY (`content_id`) REFERENCES `library_contents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `group_submissions_chain_idx` ON `group_submissions` (`content_id`,`group_id`,`revision`);--> statement-breakpoint
CREATE INDEX `group_submissions_latest_idx` ON `group_submissions` (`content_id`,`is_latest`,`submitted_at`,`id`);--> statement-breakpoint
CREATE INDEX `group_submissions_status_idx` ON `group_submissions` (`content_id`,`is_latest`,`status`,`submitted_at`,`id`);--> statement-breakpoint
CREATE TABLE `group_members` (
	`group_id` text NOT NULL,
	`member_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`group_id`, `member_id`),
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `group_members_member_idx` ON `group_members` (`member_id`);--> statement-breakpoint
CREATE TABLE `groups` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `groups_kind_name_idx` ON `groups` (`kind`,`name`,`id`);--> statement-breakpoint
CREATE TABLE `invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`role_id` text NOT NULL,
	`role_key` text NOT NULL,
	`role_name` text NOT NULL,
	`status` text NOT NULL,
	`token_hash` text NOT NULL,
	`sent_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`accepted_at` integer,
	`member_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invitations_token_idx` ON `invitations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `invitations_email_idx` ON `invitations` (`email`,`id`);--> statement-breakpoint
CREATE INDEX `invitations_created_idx` ON `invitations` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `invitations_status_idx` ON `invitations` (`status`,`expires_at`);--> statement-breakpoint
CREATE INDEX `invitations_role_idx` ON `invitations` (`role_id`,`status`);--> statement-breakpoint
CREATE TABLE `tenant_join_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`expires_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tenant_join_codes_code_unique` ON `tenant_join_codes` (`code`);--> statement-breakpoint
CREATE INDEX `tenant_join_codes_created_idx` ON `tenant_join_codes` (`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `library_content_files` (
	`content_id` text NOT NULL,
	`file_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`content_id`, `file_id`),
	FOREIGN KEY (`content_id`) REFERENCES `library_contents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `library_content_files_file_idx` ON `library_content_files` (`file_id`);--> statement-breakpoint
CREATE TABLE `library_content_shares` (
	`content_id` text NOT NULL,
	`member_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`content_id`, `member_id`),
	FOREIGN KEY (`content_id`) REFERENCES `library_contents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `library_content_shares_member_idx` ON `library_content_shares` (`member_id`,`content_id`);--> statement-breakpoint
CREATE TABLE `library_contents` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`visibility` text NOT NULL,
	`node_id` text,
	`space_id` text,
	`author_profile_id` text NOT NULL,
	`info` text,
	`info_file_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`node_id`) REFERENCES `library_nodes`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `library_contents_created_idx` ON `library_contents` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `library_contents_node_created_idx` ON `library_contents` (`node_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `library_contents_type_created_idx` ON `library_contents` (`type`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `library_contents_space_idx` ON `library_contents` (`space_id`,`visibility`);--> statement-breakpoint
CREATE INDEX `library_contents_author_idx` ON `library_contents` (`author_profile_id`);--> statement-breakpoint
CREATE INDEX `library_contents_info_file_idx` ON `library_contents` (`info_file_id`);--> statement-breakpoint
CREATE TABLE `library_nodes` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text,
	`parent_id` text,
	`title` text NOT NULL,
	`rank` text NOT NULL,
	`depth` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`parent_id`) REFERENCES `library_nodes`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `library_nodes_parent_idx` ON `library_nodes` (`parent_id`,`rank`,`id`);--> statement-breakpoint
CREATE INDEX `library_nodes_space_idx` ON `library_nodes` (`space_id`,`parent_id`,`rank`,`id`);--> statement-breakpoint
CREATE TABLE `login_page_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`live` text,
	`draft` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `member_field_values` (
	`member_id` text NOT NULL,
	`field_id` text NOT NULL,
	`value_text` text,
	`value_number` real,
	`value_date` integer,
	PRIMARY KEY(`member_id`, `field_id`),
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`field_id`) REFERENCES `custom_fields`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `member_field_values_text_idx` ON `member_field_values` (`field_id`,`value_text`,`member_id`) WHERE value_text IS NOT NULL;--> statement-breakpoint
CREATE INDEX `member_field_values_number_idx` ON `member_field_values` (`field_id`,`value_number`,`member_id`) WHERE value_number IS NOT NULL;--> statement-breakpoint
CREATE INDEX `member_field_values_date_idx` ON `member_field_values` (`field_id`,`value_date`,`member_id`) WHERE value_date IS NOT NULL;--> statement-breakpoint
CREATE TABLE `members` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`user_id_key` text,
	`email` text,
	`display_name` text NOT NULL,
	`role_id` text NOT NULL,
	`password_hash` text,
	`is_active` integer DEFAULT true NOT NULL,
	`is_issued_account` integer DEFAULT false NOT NULL,
	`must_change_password` integer DEFAULT false NOT NULL,
	`last_login_at` integer,
	`picture_url` text,
	`affiliation` text,
	`external_member_code` text,
	`bio` text,
	`position_id` text,
	`failed_logins` integer DEFAULT 0 NOT NULL,
	`locked_until` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`role_id`) REFERENCES `roles`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `members_user_id_key_idx` ON `members` (`user_id_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `members_email_idx` ON `members` (`email`);--> statement-breakpoint
CREATE INDEX `members_created_idx` ON `members` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `members_role_idx` ON `members` (`role_id`);--> statement-breakpoint
CREATE INDEX `members_display_name_idx` ON `members` (`display_name`,`id`);--> statement-breakpoint
CREATE INDEX `members_position_idx` ON `members` (`position_id`);--> statement-breakpoint
CREATE INDEX `members_active_created_idx` ON `members` (`is_active`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `members_last_login_idx` ON `members` (`last_login_at`,`id`);--> statement-breakpoint
CREATE INDEX `members_active_sort_idx` ON `members` (`is_active`,`id`);--> statement-breakpoint
CREATE INDEX `members_email_sort_idx` ON `members` (`email`,`id`);--> statement-breakpoint
CREATE INDEX `members_user_id_sort_idx` ON `members` (`user_id_key`,`id`);--> statement-breakpoint
CREATE INDEX `members_issued_created_idx` ON `members` (`is_issued_account`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `members_lookup_idx` ON `members` (`id`,`is_active`,`is_issued_account`,`role_id`,`last_login_at`);--> statement-breakpoint
CREATE TABLE `profiles` (
	`id` text PRIMARY KEY NOT NULL,
	`member_id` text NOT NULL,
	`is_main` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `profiles_member_idx` ON `profiles` (`member_id`);--> statement-breakpoint
CREATE TABLE `org_unit_members` (
	`unit_id` text NOT NULL,
	`member_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`unit_id`, `member_id`),
	FOREIGN KEY (`unit_id`) REFERENCES `org_units`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `org_unit_members_member_idx` ON `org_unit_members` (`member_id`);--> statement-breakpoint
CREATE TABLE `org_units` (
	`id` text PRIMARY KEY NOT NULL,
	`parent_id` text,
	`name` text NOT NULL,
	`order` integer DEFAULT 0 NOT NULL,
	`leader_member_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`parent_id`) REFERENCES `org_units`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`leader_member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `org_units_parent_order_idx` ON `org_units` (`parent_id`,`order`,`id`);--> statement-breakpoint
CREATE TABLE `position_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`enabled` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `positions` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`order` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `positions_order_idx` ON `positions` (`order`,`id`);--> statement-breakpoint
CREATE TABLE `peer_answers` (
	`assessment_id` text NOT NULL,
	`content_id` text NOT NULL,
	`target_id` text NOT NULL,
	`question_id` text NOT NULL,
	`score` integer NOT NULL,
	`comment` text,
	PRIMARY KEY(`assessment_id`, `question_id`),
	FOREIGN KEY (`assessment_id`) REFERENCES `peer_assessments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `peer_answers_target_idx` ON `peer_answers` (`content_id`,`target_id`,`question_id`);--> statement-breakpoint
CREATE INDEX `peer_answers_question_idx` ON `peer_answers` (`content_id`,`question_id`);--> statement-breakpoint
CREATE TABLE `peer_assessment_configs` (
	`content_id` text PRIMARY KEY NOT NULL,
	`snapshot_id` text NOT NULL,
	`space_group_set_id` text,
	`space_group_set_name` text,
	`link_invalid_reason` text,
	`allow_descriptive_assessment` integer DEFAULT false NOT NULL,
	`allow_self_assessment` integer DEFAULT false NOT NULL,
	`submit_type` text DEFAULT 'GROUP_MEMBER' NOT NULL,
	`questions` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`content_id`) REFERENCES `library_contents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `peer_assessment_configs_set_idx` ON `peer_assessment_configs` (`space_group_set_id`);--> statement-breakpoint
CREATE TABLE `peer_assessments` (
	`id` text PRIMARY KEY NOT NULL,
	`content_id` text NOT NULL,
	`assessor_profile_id` text NOT NULL,
	`target_id` text NOT NULL,
	`target_name` text NOT NULL,
	`group_id` text NOT NULL,
	`group_name` text NOT NULL,
	`submitted_at` integer NOT NULL,
	FOREIGN KEY (`content_id`) REFERENCES `library_contents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `peer_assessments_assessor_idx` ON `peer_assessments` (`content_id`,`assessor_profile_id`,`target_id`);--> statement-breakpoint
CREATE INDEX `peer_assessments_target_idx` ON `peer_assessments` (`content_id`,`target_id`);--> statement-breakpoint
CREATE TABLE `post_files` (
	`post_id` text NOT NULL,
	`file_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`post_id`, `file_id`),
	FOREIGN KEY (`post_id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `post_files_file_idx` ON `post_files` (`file_id`);--> statement-breakpoint
CREATE TABLE `posts` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`index` integer NOT NULL,
	`title` text NOT NULL,
	`content` text NOT NULL,
	`type` text NOT NULL,
	`tags` text NOT NULL,
	`is_emergency` integer NOT NULL,
	`is_pinned` integer NOT NULL,
	`allow_file_download` integer NOT NULL,
	`status` text NOT NULL,
	`publish_at` integer NOT NULL,
	`author_member_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `posts_space_index_idx` ON `posts` (`space_id`,`index`);--> statement-breakpoint
CREATE INDEX `posts_list_idx` ON `posts` (`is_pinned`,`publish_at`,`id`);--> statement-breakpoint
CREATE INDEX `posts_space_list_idx` ON `posts` (`space_id`,`is_pinned`,`publish_at`,`id`);--> statement-breakpoint
CREATE INDEX `posts_type_list_idx` ON `posts` (`type`,`is_pinned`,`publish_at`,`id`);--> statement-breakpoint
CREATE INDEX `posts_status_idx` ON `posts` (`status`,`publish_at`);--> statement-breakpoint
CREATE INDEX `posts_space_status_idx` ON `posts` (`space_id`,`status`,`publish_at`);--> statement-breakpoint
CREATE INDEX `posts_author_idx` ON `posts` (`author_member_id`);--> statement-breakpoint
CREATE TABLE `quiz_answers` (
	`id` text PRIMARY KEY NOT NULL,
	`attempt_id` text NOT NULL,
	`content_id` text NOT NULL,
	`question_id` text NOT NULL,
	`selected_option_ids` text NOT NULL,
	`text_answer` text,
	`answered` integer DEFAULT false NOT NULL,
	`is_correct` integer,
	`points_awarded` integer,
	`feedback_text` text,
	`feedback_author_profile_id` text,
	`feedback_created_at` integer,
	`feedback_updated_at` integer,
	`saved_at` integer,
	`submitted_at` integer,
	FOREIGN KEY (`attempt_id`) REFERENCES `quiz_attempts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `quiz_answers_attempt_idx` ON `quiz_answers` (`attempt_id`,`question_id`);--> statement-breakpoint
CREATE INDEX `quiz_answers_content_idx` ON `quiz_answers` (`content_id`,`submitted_at`,`question_id`);--> statement-breakpoint
CREATE TABLE `quiz_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`content_id` text NOT NULL,
	`question_set_id` text NOT NULL,
	`profile_id` text NOT NULL,
	`shuffle_questions` integer DEFAULT false NOT NULL,
	`shuffle_options` integer DEFAULT false NOT NULL,
	`started_at` integer NOT NULL,
	`expires_at` integer,
	`submitted_at` integer,
	`score` integer,
	`has_pending_manual` integer DEFAULT false NOT NULL,
	`scoring_completed_at` integer,
	FOREIGN KEY (`content_id`) REFERENCES `library_contents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`question_set_id`) REFERENCES `quiz_question_sets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `quiz_attempts_profile_idx` ON `quiz_attempts` (`content_id`,`profile_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `quiz_attempts_submitted_idx` ON `quiz_attempts` (`content_id`,`submitted_at`,`id`);--> statement-breakpoint
CREATE TABLE `quiz_configs` (
	`content_id` text PRIMARY KEY NOT NULL,
	`pass_score` integer,
	`max_attempts` integer,
	`time_limit_min` integer,
	`shuffle_questions` integer DEFAULT false NOT NULL,
	`shuffle_options` integer DEFAULT false NOT NULL,
	`result_expose_level` text DEFAULT 'ALL' NOT NULL,
	`score_aggregation` text DEFAULT 'HIGHEST' NOT NULL,
	`partial_credit_multiple` integer DEFAULT false NOT NULL,
	`question_set_id` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`content_id`) REFERENCES `library_contents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`question_set_id`) REFERENCES `quiz_question_sets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `quiz_question_set_files` (
	`question_set_id` text NOT NULL,
	`file_id` text NOT NULL,
	PRIMARY KEY(`question_set_id`, `file_id`),
	FOREIGN KEY (`question_set_id`) REFERENCES `quiz_question_sets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `quiz_question_set_files_file_idx` ON `quiz_question_set_files` (`file_id`);--> statement-breakpoint
CREATE TABLE `quiz_question_sets` (
	`id` text PRIMARY KEY NOT NULL,
	`content_id` text NOT NULL,
	`questions` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`content_id`) REFERENCES `library_contents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `quiz_question_sets_content_idx` ON `quiz_question_sets` (`content_id`);--> statement-breakpoint
CREATE TABLE `roles` (
	`id` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`is_builtin` integer DEFAULT false NOT NULL,
	`permissions` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `roles_key_unique` ON `roles` (`key`);--> statement-breakpoint
CREATE INDEX `roles_list_idx` ON `roles` (`is_builtin`,`name`,`id`);--> statement-breakpoint
CREATE TABLE `space_blocks` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`member_id` text NOT NULL,
	`reason` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `space_blocks_space_member_idx` ON `space_blocks` (`space_id`,`member_id`);--> statement-breakpoint
CREATE INDEX `space_blocks_list_idx` ON `space_blocks` (`space_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `space_categories` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`order` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `space_categories_order_idx` ON `space_categories` (`order`,`id`);--> statement-breakpoint
CREATE TABLE `space_category_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`semester_enabled` integer NOT NULL,
	`semester_with_year` integer NOT NULL,
	`tags` text NOT NULL,
	`roles` text NOT NULL,
	`start_menu` text NOT NULL,
	`enabled_menus` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `space_defaults` (
	`id` integer PRIMARY KEY NOT NULL,
	`default_auto_join` integer NOT NULL,
	`default_exit_restricted` integer NOT NULL,
	`default_allow_file_download` integer NOT NULL,
	`default_vod_concurrent_limit` integer NOT NULL,
	`enforce_file_download_disabled` integer NOT NULL,
	`enforce_vod_concurrent_limit` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `space_enrollment_history` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`member_id` text NOT NULL,
	`role` text NOT NULL,
	`joined_at` integer NOT NULL,
	`left_at` integer NOT NULL,
	`reason` text NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `space_enrollment_history_space_idx` ON `space_enrollment_history` (`space_id`,`left_at`);--> statement-breakpoint
CREATE INDEX `space_enrollment_history_member_idx` ON `space_enrollment_history` (`member_id`);--> statement-breakpoint
CREATE TABLE `space_group_members` (
	`group_id` text NOT NULL,
	`set_id` text NOT NULL,
	`member_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`group_id`, `member_id`),
	FOREIGN KEY (`group_id`) REFERENCES `space_groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`set_id`) REFERENCES `space_group_sets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `space_group_members_set_member_idx` ON `space_group_members` (`set_id`,`member_id`);--> statement-breakpoint
CREATE INDEX `space_group_members_member_idx` ON `space_group_members` (`member_id`);--> statement-breakpoint
CREATE TABLE `space_group_sets` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `space_group_sets_space_idx` ON `space_group_sets` (`space_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `space_groups` (
	`id` text PRIMARY KEY NOT NULL,
	`set_id` text NOT NULL,
	`name` text NOT NULL,
	`position` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`set_id`) REFERENCES `space_group_sets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `space_groups_set_idx` ON `space_groups` (`set_id`,`position`);--> statement-breakpoint
CREATE TABLE `space_join_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`space_id` text NOT NULL,
	`code` text NOT NULL,
	`role` text NOT NULL,
	`password` text,
	`enabled` integer DEFAULT true NOT NULL,
	`expires_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `space_join_codes_code_unique` ON `space_join_codes` (`code`);--> statement-breakpoint
CREATE INDEX `space_join_codes_space_idx` ON `space_join_codes` (`space_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `space_members` (
	`space_id` text NOT NULL,
	`member_id` text NOT NULL,
	`role` text NOT NULL,
	`is_owner` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`space_id`, `member_id`),
	FOREIGN KEY (`space_id`) REFERENCES `spaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `space_members_member_idx` ON `space_members` (`member_id`,`space_id`);--> statement-breakpoint
CREATE INDEX `space_members_list_idx` ON `space_members` (`space_id`,`created_at`,`member_id`);--> statement-breakpoint
CREATE INDEX `space_members_role_idx` ON `space_members` (`space_id`,`role`);--> statement-breakpoint
CREATE TABLE `spaces` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`representative_name` text,
	`description` text,
	`thumbnail_file_id` text,
	`semester` text,
	`is_active` integer DEFAULT true NOT NULL,
	`is_public` integer DEFAULT false NOT NULL,
	`auto_join` integer DEFAULT false NOT NULL,
	`exit_restricted` integer DEFAULT false NOT NULL,
	`allow_file_download` integer DEFAULT true NOT NULL,
	`vod_concurrent_limit` integer DEFAULT false NOT NULL,
	`retain_enrollment_history` integer DEFAULT false NOT NULL,
	`start_menu` text NOT NULL,
	`enabled_menus` text NOT NULL,
	`message_enabled` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `spaces_created_idx` ON `spaces` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `spaces_active_created_idx` ON `spaces` (`is_active`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `spaces_semester_created_idx` ON `spaces` (`semester`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `spaces_auto_join_created_idx` ON `spaces` (`auto_join`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `spaces_exit_restricted_created_idx` ON `spaces` (`exit_restricted`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `spaces_public_created_idx` ON `spaces` (`is_public`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `spaces_thumbnail_idx` ON `spaces` (`thumbnail_file_id`);--> statement-breakpoint
CREATE TABLE `saml_requests` (
	`relay_state` text PRIMARY KEY NOT NULL,
	`request_id` text NOT NULL,
	`return_to` text NOT NULL,
	`session_type` text,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `saml_requests_expires_idx` ON `saml_requests` (`expires_at`);--> statement-breakpoint
CREATE TABLE `saml_seen_assertions` (
	`assertion_id` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `saml_seen_assertions_expires_idx` ON `saml_seen_assertions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `sso_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`allowed_login_methods` text DEFAULT 'ALL' NOT NULL,
	`idp_sso_url` text,
	`idp_entity_url` text,
	`x509_cert` text,
	`provision_members` integer DEFAULT false NOT NULL,
	`attribute_mappings` text NOT NULL,
	`partner_providers` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `survey_answers` (
	`response_id` text NOT NULL,
	`content_id` text NOT NULL,
	`question_id` text NOT NULL,
	`option_ids` text NOT NULL,
	`etc_text` text,
	`text` text,
	`scale_value` integer,
	`submitted_at` integer,
	PRIMARY KEY(`response_id`, `question_id`),
	FOREIGN KEY (`response_id`) REFERENCES `survey_responses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `survey_answers_content_idx` ON `survey_answers` (`content_id`,`submitted_at`,`question_id`);--> statement-breakpoint
CREATE INDEX `survey_answers_question_idx` ON `survey_answers` (`question_id`,`submitted_at`,`response_id`);--> statement-breakpoint
CREATE TABLE `survey_config_files` (
	`content_id` text NOT NULL,
	`file_id` text NOT NULL,
	PRIMARY KEY(`content_id`, `file_id`),
	FOREIGN KEY (`content_id`) REFERENCES `survey_configs`(`content_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `survey_config_files_file_idx` ON `survey_config_files` (`file_id`);--> statement-breakpoint
CREATE TABLE `survey_configs` (
	`content_id` text PRIMARY KEY NOT NULL,
	`description` text,
	`is_anonymous` integer DEFAULT false NOT NULL,
	`allow_resubmit` integer DEFAULT false NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	`questions` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`content_id`) REFERENCES `library_contents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `survey_responses` (
	`id` text PRIMARY KEY NOT NULL,
	`content_id` text NOT NULL,
	`profile_id` text NOT NULL,
	`status` text NOT NULL,
	`version` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`submitted_at` integer,
	FOREIGN KEY (`content_id`) REFERENCES `library_contents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `survey_responses_respondent_idx` ON `survey_responses` (`content_id`,`profile_id`);--> statement-breakpoint
CREATE INDEX `survey_responses_status_idx` ON `survey_responses` (`content_id`,`status`,`profile_id`);--> statement-breakpoint
CREATE TABLE `tenant_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`contact_info` text,
	`logo_image_url` text,
	`default_session_type` text DEFAULT 'personal' NOT NULL,
	`public_absolute_timeout_minutes` integer DEFAULT 480 NOT NULL,
	`allow_user_self_sign_up` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `term_consents` (
	`id` text PRIMARY KEY NOT NULL,
	`subject` text NOT NULL,
	`topic` text NOT NULL,
	`version` integer NOT NULL,
	`is_essential` integer NOT NULL,
	`agreed_at` integer NOT NULL,
	`expires_at` integer,
	`withdrawn_at` integer
);
--> statement-breakpoint
CREATE INDEX `term_consents_subject_idx` ON `term_consents` (`subject`,`topic`,`agreed_at`);--> statement-breakpoint
CREATE INDEX `term_consents_topic_idx` ON `term_consents` (`topic`,`version`);--> statement-breakpoint
CREATE TABLE `term_topics` (
	`topic` text PRIMARY KEY NOT NULL,
	`current_version` integer NOT NULL,
	`latest_version` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `term_versions` (
	`topic` text NOT NULL,
	`version` integer NOT NULL,
	`is_essential` integer NOT NULL,
	`is_visible` integer NOT NULL,
	`sort_order` integer NOT NULL,
	`title_ko` text NOT NULL,
	`title_en` text NOT NULL,
	`document_url_ko` text NOT NULL,
	`document_url_en` text NOT NULL,
	`consent_ttl_days` integer,
	`is_active` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`topic`, `version`)
);
