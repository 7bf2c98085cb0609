import type { LanguageChoice } from '@judge/contract';
import { describe, expect, it } from 'vitest';
import { guessFromCode } from './guessCode';

const lang = (id: string, name: string, ...extensions: string[]): LanguageChoice => ({ id, name, extensions });
const C = lang('c', 'C', '.c');
const CPP = lang('cpp', 'C++', '.cpp', '.cc');
const PY = lang('python3', 'Python 3', '.py');
const JAVA = lang('java', 'Java', '.java');
const ALLOWED = [C, CPP, JAVA, PY];

const PYTHON_SUM = 'a, b = map(int, input().split())\nprint(a + b)\n';
const PYTHON_LOOP = 'import sys\n\ndef main():\n    for line in sys.stdin:\n        print(sum(map(int, line.split())))\n\nmain()\n';
const C_SUM = '#include <stdio.h>\nint main(void) {\n  int a, b;\n  scanf("%d %d", &a, &b);\n  printf("%d\\n", a + b);\n  return 0;\n}\n';
const CPP_SUM = '#include <iostream>\nusing namespace std;\nint main() {\n  int a, b;\n  cin >> a >> b;\n  cout << a + b << endl;\n}\n';
const JAVA_SUM = 'import java.util.*;\npublic class Main {\n  public static void main(String[] args) {\n    Scanner s = new Scanner(System.in);\n    System.out.println(s.nextInt() + s.nextInt());\n  }\n}\n';

describe('guessFromCode', () => {
  it('takes pasted Python for Python while C is chosen (the select starts on C)', () => {
    expect(guessFromCode(PYTHON_SUM, ALLOWED, 'c')).toMatchObject({ family: 'Python', language: PY });
    expect(guessFromCode(PYTHON_LOOP, ALLOWED, 'c')).toMatchObject({ family: 'Python', language: PY });
  });

  it('tells C++, Java and C apart', () => {
    expect(guessFromCode(CPP_SUM, ALLOWED, 'python3')?.language).toBe(CPP);
    expect(guessFromCode(JAVA_SUM, ALLOWED, 'c')?.language).toBe(JAVA);
    expect(guessFromCode(C_SUM, ALLOWED, 'python3')?.language).toBe(C);
  });

  it('keeps the chosen language when the code fits it: C under C++, Python under Python', () => {
    expect(guessFromCode(C_SUM, ALLOWED, 'cpp')).toBeUndefined();
    expect(guessFromCode(PYTHON_SUM, ALLOWED, 'python3')).toBeUndefined();
    expect(guessFromCode(CPP_SUM, ALLOWED, 'cpp')).toBeUndefined();
  });

  it('decides nothing from a line or two, and names a family the problem does not allow without a language', () => {
    expect(guessFromCode('x = 1', ALLOWED, 'c')).toBeUndefined();
    expect(guessFromCode('', ALLOWED, 'c')).toBeUndefined();
    expect(guessFromCode(PYTHON_SUM, [C, CPP], 'c')).toEqual({ family: 'Python' });
  });
});
