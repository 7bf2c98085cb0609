import fs from 'node:fs';
import path from 'node:path';
import type { TestCase } from '../problem/types.js';
import type { GradeContext } from './grader.js';

/**
 * What the package's validator sees, without reaching into the runner's caches. The package cache
 * and the validator's build are private to the runner's user (0700 directories, 0600 files), so no
 * other user of a judging machine reads secret test data there, and the sandbox's slot uid cannot
 * either. So a judging's validator runs from a copy of itself in a box of the judging (a slot
 * uid's own 0700 directory, which no other user may enter), and each of its runs reads copies of
 * the test's input and answer there and writes its feedback there. Nothing of the cache is
 * mounted, so no cache path shows in the arguments of any process (bwrap's included), and the
 * validator itself sees only its in-sandbox paths (/box, /judge/data, /judge/feedback).
 */
export interface ValidatorView {
  /** The box's directory: the validator copy, test data and feedback directories live in it. */
  root: string;
  /** The validator's copy: the workDir of its runs (its owner is the slot uid they run as). */
  dir: string;
  uid: number;
  gid: number;
}

const views = new WeakMap<GradeContext, Promise<ValidatorView>>();

/** The judging's view of its validator, made on first use and removed when the judging ends. */
export function validatorView(ctx: GradeContext): Promise<ValidatorView> {
  let view = views.get(ctx);
  if (!view) {
    view = (async () => {
      const box = await ctx.input.sandbox.prepareBox();
      ctx.onCleanup(() => box.dispose());
      const dir = path.join(box.path, 'validator');
      await fs.promises.cp(ctx.validator!.dir, dir, { recursive: true });
      const v = { root: box.path, dir, uid: box.uid, gid: box.gid };
      await handOver(v, dir);
      return v;
    })();
    views.set(ctx, view);
  }
  return view;
}

/** Copies of a test's input and answer (under their own names) for one validator run: remove it after. */
export async function testDataView(ctx: GradeContext, test: TestCase): Promise<string> {
  const v = await validatorView(ctx);
  const dir = path.join(v.root, `data-${++ctx.seq}`);
  await fs.promises.mkdir(dir, { mode: 0o700 });
  await fs.promises.copyFile(test.input, path.join(dir, path.basename(test.input)));
  await fs.promises.copyFile(test.answer, path.join(dir, path.basename(test.answer)));
  await handOver(v, dir);
  return dir;
}

/** A fresh feedback directory the validator may write, in the view. */
export async function feedbackView(ctx: GradeContext): Promise<string> {
  const v = await validatorView(ctx);
  const dir = path.join(v.root, `feedback-${++ctx.seq}`);
  await fs.promises.mkdir(dir, { mode: 0o700 });
  await handOver(v, dir);
  return dir;
}

/** Gives `p` and all below it to the view's slot uid, readable (and directories searchable) by it alone. */
async function handOver(v: ValidatorView, p: string): Promise<void> {
  const st = await fs.promises.lstat(p);
  if (st.isSymbolicLink()) return;
  if (process.geteuid?.() === 0) await fs.promises.lchown(p, v.uid, v.gid);
  await fs.promises.chmod(p, st.isDirectory() || st.mode & 0o100 ? 0o700 : 0o600);
  if (st.isDirectory()) for (const e of await fs.promises.readdir(p)) await handOver(v, path.join(p, e));
}
