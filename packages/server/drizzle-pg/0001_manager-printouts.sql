-- PostgreSQL's counterpart of drizzle/0011_manager-printouts.sql, so that both dialects' migrations
-- end in the same state: the built-in Manager role works its activity's printout queue too
-- (printout:manage). A manager role that has it already is left as it is. On a database made by
-- 0000 no role exists yet (init.ts seeds them with today's permissions), so there it changes nothing.
UPDATE "roles" SET "permissions" = ("permissions"::jsonb || '["printout:manage"]'::jsonb)::text
WHERE "built_in_key" = 'manager'
  AND NOT ("permissions"::jsonb ? 'printout:manage');
