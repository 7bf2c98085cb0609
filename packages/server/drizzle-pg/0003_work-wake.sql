-- Wakes runners' long polls on every server of a cluster when work is queued (docs/storage.md,
-- "Several servers"): a row of attempts or sample_runs entering the state 'queued' notifies the
-- channel judge_work with 'jobs', one of trials with 'trials'. A notification is delivered when its
-- transaction commits and never when it rolls back; PostgreSQL folds equal ones of a transaction
-- into one. Each server LISTENs (src/cluster/event-log.ts) and wakes its waiting claims.
-- SQLite has no counterpart: there the one server wakes its own polls after the commit.
CREATE FUNCTION judge_work_queued() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.state = 'queued' AND (TG_OP = 'INSERT' OR OLD.state IS DISTINCT FROM 'queued') THEN
    PERFORM pg_notify('judge_work', TG_ARGV[0]);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER attempts_work_queued AFTER INSERT OR UPDATE OF state ON attempts
  FOR EACH ROW EXECUTE FUNCTION judge_work_queued('jobs');
--> statement-breakpoint
CREATE TRIGGER sample_runs_work_queued AFTER INSERT OR UPDATE OF state ON sample_runs
  FOR EACH ROW EXECUTE FUNCTION judge_work_queued('jobs');
--> statement-breakpoint
CREATE TRIGGER trials_work_queued AFTER INSERT OR UPDATE OF state ON trials
  FOR EACH ROW EXECUTE FUNCTION judge_work_queued('trials');
