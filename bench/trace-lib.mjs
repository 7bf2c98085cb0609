// What a page's first render costs its main thread, read from a Chromium performance trace: figures
// that depend little on how busy the machine is (the wall time does, on a shared machine), so that
// two builds can be compared under load. staff-submissions-stream.mjs uses it with BENCH_TRACE=1.
//
// A trace is Chromium's "Trace Event Format" (JSON, `traceEvents`, complete events with `ph: 'X'`,
// timestamps and durations in microseconds). The page's renderer main thread is the `CrRendererMain`
// thread that ran the page's scripts; its busy time is the sum of its top-level tasks.

export const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'v8',
  'v8.execute',
  'loading',
];

/** Groups of the timeline's event names, each counted once per outermost event of the group. */
const GROUPS = {
  'compile and parse JS': ['v8.compile', 'V8.CompileCode', 'v8.compileModule', 'CompileScript', 'V8.ParseFunction', 'v8.parseOnBackground'],
  'run JS': ['EvaluateScript', 'v8.evaluateModule', 'FunctionCall', 'TimerFire', 'EventDispatch', 'FireAnimationFrame', 'RunMicrotasks', 'V8.RunMicrotasks', 'v8.run'],
  'garbage collection': ['MajorGC', 'MinorGC', 'V8.GCScavenger', 'V8.GCFinalizeMC', 'BlinkGC.AtomicPhase'],
  'style and layout': ['UpdateLayoutTree', 'Layout', 'RecalculateStyles', 'ParseAuthorStyleSheet'],
  'paint': ['Paint', 'PrePaint', 'Layerize', 'UpdateLayer', 'Commit'],
  'HTML': ['ParseHTML'],
};

/** The renderer main thread that ran scripts of `origin`: [pid, tid]. */
function pageMainThread(events, origin) {
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const scripts = new Map();
  for (const e of events) {
    const url = e.args?.data?.url ?? e.args?.data?.scriptName ?? e.args?.fileName;
    const key = `${e.pid}:${e.tid}`;
    if (mains.has(key) && typeof url === 'string' && url.startsWith(origin)) scripts.set(key, (scripts.get(key) ?? 0) + 1);
  }
  const best = [...scripts].sort((a, b) => b[1] - a[1])[0];
  if (!best) throw new Error(`no renderer main thread ran a script of ${origin}`);
  return best[0];
}

/** The total of intervals, overlaps counted once. */
function union(intervals) {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = -Infinity;
  for (const [s, e] of sorted) {
    if (e <= end) continue;
    total += e - Math.max(s, end);
    end = e;
  }
  return total;
}

/**
 * The main thread's work from the navigation until the user timing mark `mark`: busy time (the union
 * of its tasks' wall times), the CPU time its tasks got, and how much of the busy time went to each
 * group of GROUPS, in ms.
 */
export function mainThreadUntil(trace, origin, mark) {
  const events = trace.traceEvents ?? trace;
  const thread = pageMainThread(events, origin);
  const on = events.filter((e) => `${e.pid}:${e.tid}` === thread);
  const markEvent = on.find((e) => e.name === mark) ?? events.find((e) => e.name === mark);
  if (!markEvent) throw new Error(`the trace has no mark ${mark}`);
  const nav = events.find((e) => e.name === 'navigationStart' && e.pid === markEvent.pid) ?? on[0];
  const from = nav.ts;
  const until = markEvent.ts;
  const clip = (e) => [Math.max(e.ts, from), Math.min(e.ts + e.dur, until)];
  const inWindow = on.filter((e) => e.ph === 'X' && e.dur > 0 && e.ts < until && e.ts + e.dur > from);
  const tasks = inWindow.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
  const groups = {};
  for (const [group, names] of Object.entries(GROUPS)) {
    const set = new Set(names);
    groups[group] = union(inWindow.filter((e) => set.has(e.name)).map(clip)) / 1000;
  }
  // thread time (CPU the thread really got; a task's `tdur`) is what load changes least: on a busy
  // machine a task's wall time also counts the time its thread waited for a CPU
  const cpuMs = tasks.filter((e) => e.ts >= from).reduce((sum, e) => sum + (e.tdur ?? 0), 0) / 1000;
  return { wallMs: (until - from) / 1000, busyMs: union(tasks.map(clip)) / 1000, cpuMs, groups };
}

/** The scripts the page received before `beforeMs` (from the navigation): count, bytes over the wire, bytes decoded. */
export const SCRIPTS_BEFORE = (beforeMs) => {
  const js = performance.getEntriesByType('resource').filter((e) => /\.js$/.test(new URL(e.name).pathname) && e.responseEnd <= beforeMs);
  return { count: js.length, transferred: js.reduce((s, e) => s + e.encodedBodySize, 0), decoded: js.reduce((s, e) => s + e.decodedBodySize, 0) };
};
