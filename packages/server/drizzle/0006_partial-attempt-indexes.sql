DROP INDEX `attempts_queue`;--> statement-breakpoint
DROP INDEX `attempts_lease`;--> statement-breakpoint
CREATE INDEX `attempts_queue` ON `attempts` (`state`,`priority`,`created_at`) WHERE state = 'queued';--> statement-breakpoint
CREATE INDEX `attempts_lease` ON `attempts` (`state`,`lease_expires_at`) WHERE state = 'running';