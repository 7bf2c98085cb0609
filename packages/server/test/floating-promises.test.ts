import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Storage is asynchronous: a call whose promise nobody awaits, returns or hands on with `void`
 * is a write that may fail unseen or finish after its answer went out. This walks the server's
 * sources with the type checker and lists every statement that drops a promise.
 */
const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');

function isPromiseLike(type: ts.Type, checker: ts.TypeChecker): boolean {
  if (type.isUnion()) return type.types.some((t) => isPromiseLike(t, checker));
  const then = type.getProperty('then');
  if (!then) return false;
  const decl = then.valueDeclaration ?? then.declarations?.[0];
  if (!decl) return false;
  const thenType = checker.getTypeOfSymbolAtLocation(then, decl);
  return thenType.getCallSignatures().length > 0;
}

/** Expressions a statement evaluates for their effect: `a()`, `a(), b()`, `x ? a() : b()`. */
function droppedCalls(e: ts.Expression): ts.Expression[] {
  if (ts.isParenthesizedExpression(e)) return droppedCalls(e.expression);
  if (ts.isVoidExpression(e) || ts.isAwaitExpression(e)) return [];
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.CommaToken) return [...droppedCalls(e.left), ...droppedCalls(e.right)];
  if (ts.isBinaryExpression(e) && (e.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken || e.operatorToken.kind === ts.SyntaxKind.BarBarToken || e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken)) return droppedCalls(e.right);
  if (ts.isConditionalExpression(e)) return [...droppedCalls(e.whenTrue), ...droppedCalls(e.whenFalse)];
  if (ts.isCallExpression(e) || ts.isNewExpression(e)) return handled(e) ? [] : [e];
  return [];
}

/** A chain with a rejection handler in it (`.catch(f)`, `.then(f, g)`) deals with its failure. */
function handled(e: ts.Expression): boolean {
  while (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression)) {
    const name = e.expression.name.text;
    if (name === 'catch' || (name === 'then' && e.arguments.length >= 2)) return true;
    e = e.expression.expression;
  }
  return false;
}

function floatingPromises(): string[] {
  const configPath = join(pkg, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error('cannot read the server tsconfig');
  const program = ts.createProgram({ rootNames: config.fileNames, options: { ...config.options, noEmit: true, composite: false, declaration: false } });
  const checker = program.getTypeChecker();
  const found: string[] = [];
  for (const sf of program.getSourceFiles()) {
    if (!sf.fileName.startsWith(join(pkg, 'src'))) continue;
    const visit = (node: ts.Node): void => {
      const body = ts.isExpressionStatement(node) ? node.expression : ts.isArrowFunction(node) && !ts.isBlock(node.body) && returnsVoid(node, checker) ? node.body : undefined;
      for (const call of body ? droppedCalls(body) : []) {
        if (isPromiseLike(checker.getTypeAtLocation(call), checker)) {
          const { line } = sf.getLineAndCharacterOfPosition(call.getStart(sf));
          found.push(`${relative(pkg, sf.fileName)}:${line + 1}: ${call.getText(sf).replace(/\s+/g, ' ').slice(0, 80)}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

/** An arrow whose contextual type wants nothing back (a callback typed `() => void`) drops what its body gives. */
function returnsVoid(fn: ts.ArrowFunction, checker: ts.TypeChecker): boolean {
  const contextual = checker.getContextualType(fn);
  const sig = contextual?.getCallSignatures()[0];
  if (!sig) return false;
  return (checker.getReturnTypeOfSignature(sig).flags & ts.TypeFlags.Void) !== 0;
}

describe('the server awaits what it starts', () => {
  it('drops no promise: each is awaited, returned, or handed on with void on purpose', { timeout: 120_000 }, () => {
    expect(floatingPromises()).toEqual([]);
  });
});
