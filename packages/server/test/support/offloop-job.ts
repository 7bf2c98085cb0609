/** A job for the bounded pool's tests: does what its input says, on the pool's thread. */
export type TestJobInput = { kind: 'echo'; value: string } | { kind: 'spin' } | { kind: 'grow' } | { kind: 'throw'; message: string } | { kind: 'recurse' };

const recurse = (n: number): number => recurse(n + 1) + 1;

export default function testJob(input: TestJobInput): string {
  switch (input.kind) {
    case 'echo':
      return `${input.value} from thread`;
    case 'spin':
      for (;;);
    case 'grow': {
      const kept: number[][] = [];
      for (;;) kept.push(new Array<number>(1 << 20).fill(1));
    }
    case 'throw':
      throw new Error(input.message);
    case 'recurse':
      return String(recurse(0));
  }
}
