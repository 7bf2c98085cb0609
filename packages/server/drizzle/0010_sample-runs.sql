CREATE TABLE `sample_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`activity_id` text NOT NULL,
	`series_problem_id` text NOT NULL,
	`problem_version_id` text NOT NULL,
	`problem_type` text NOT NULL,
	`sources` text NOT NULL,
	`language` text,
	`state` text NOT NULL,
	`created_at` text NOT NULL,
	`claimed_at` text,
	`finished_at` text,
	`runner_id` text,
	`runner_name` text,
	`lease_hash` text,
	`lease_expires_at` text,
	`verdict` text,
	`compile_output` text,
	`results` text,
	`failure_reason` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`series_problem_id`) REFERENCES `series_problems`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`problem_version_id`) REFERENCES `problem_versions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`runner_id`) REFERENCES `runners`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `sample_runs_queue` ON `sample_runs` (`state`,`created_at`);--> statement-breakpoint
CREATE INDEX `sample_runs_user` ON `sample_runs` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `sample_runs_lease` ON `sample_runs` (`state`,`lease_expires_at`);