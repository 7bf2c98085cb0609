CREATE TABLE `canned_answers` (
	`id` integer PRIMARY KEY NOT NULL,
	`answers` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `printouts` (
	`id` text PRIMARY KEY NOT NULL,
	`activity_id` text NOT NULL,
	`user_id` text NOT NULL,
	`title` text NOT NULL,
	`file_name` text NOT NULL,
	`source` text,
	`size_bytes` integer NOT NULL,
	`sha256` text NOT NULL,
	`submission_id` text,
	`series_problem_id` text,
	`state` text DEFAULT 'queued' NOT NULL,
	`requested_at` text NOT NULL,
	`claimed_by_user_id` text,
	`claimed_at` text,
	`resolved_by_user_id` text,
	`resolved_at` text,
	`note` text,
	`source_disposed_at` text,
	`print_started_at` text,
	`print_finished_at` text,
	`print_exit_code` integer,
	`print_output` text,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`series_problem_id`) REFERENCES `series_problems`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`claimed_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`resolved_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `printouts_activity` ON `printouts` (`activity_id`,`state`,`requested_at`);--> statement-breakpoint
CREATE INDEX `printouts_user` ON `printouts` (`user_id`,`activity_id`);--> statement-breakpoint
CREATE INDEX `printouts_disposal` ON `printouts` (`resolved_at`) WHERE source_disposed_at is null;--> statement-breakpoint
CREATE TABLE `question_reads` (
	`question_id` text NOT NULL,
	`user_id` text NOT NULL,
	`read_at` text NOT NULL,
	FOREIGN KEY (`question_id`) REFERENCES `questions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `question_reads_pk` ON `question_reads` (`question_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `question_reads_user` ON `question_reads` (`user_id`);--> statement-breakpoint
CREATE TABLE `questions` (
	`id` text PRIMARY KEY NOT NULL,
	`activity_id` text NOT NULL,
	`kind` text NOT NULL,
	`topic` text NOT NULL,
	`body` text NOT NULL,
	`author_user_id` text,
	`series_id` text,
	`series_problem_id` text,
	`answer_body` text,
	`answer_user_id` text,
	`answered_at` text,
	`is_published` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`series_id`) REFERENCES `series`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`series_problem_id`) REFERENCES `series_problems`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`answer_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `questions_activity` ON `questions` (`activity_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `questions_author` ON `questions` (`author_user_id`);