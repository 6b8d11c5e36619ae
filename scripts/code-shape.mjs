// Prints the shape of the code: lines per part, and the largest functions by lines and by
// branches. `node scripts/code-shape.mjs [dir]` (default: this checkout). Run it in a worktree of
// an older commit to compare (the closing notes of issue 28 do).
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(process.argv[2] ?? '.');
const PARTS = ['domain', 'server', 'web/src', 'tests', 'e2e'];
const SKIP = /node_modules|migrations|dist\//;

function* sourceFiles(dir) {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (SKIP.test(full)) continue;
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|tsx)$/.test(entry.name)) yield full;
  }
}

const BRANCHES = new Set([
  ts.SyntaxKind.IfStatement,
  ts.SyntaxKind.ConditionalExpression,
  ts.SyntaxKind.CaseClause,
  ts.SyntaxKind.ForStatement,
  ts.SyntaxKind.ForOfStatement,
  ts.SyntaxKind.ForInStatement,
  ts.SyntaxKind.WhileStatement,
  ts.SyntaxKind.DoStatement,
  ts.SyntaxKind.CatchClause,
]);
const LOGICAL = new Set([ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken]);

/** Cyclomatic complexity of a function's own body (nested functions count for themselves). */
function complexity(fn) {
  let n = 1;
  const visit = (node) => {
    if (node !== fn && ts.isFunctionLike(node)) return;
    if (BRANCHES.has(node.kind)) n += 1;
    if (ts.isBinaryExpression(node) && LOGICAL.has(node.operatorToken.kind)) n += 1;
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(fn, visit);
  return n;
}

function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) {
    return parent.name.getText();
  }
  return '(anonymous)';
}

const lines = {};
const functions = [];
for (const part of PARTS) {
  let count = 0;
  for (const file of sourceFiles(path.join(root, part))) {
    const text = fs.readFileSync(file, 'utf8');
    count += text.split('\n').filter((line) => line.trim() !== '').length;
    if (part === 'tests' || part === 'e2e') continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        functions.push({ where: `${path.relative(root, file)}:${start + 1} ${nameOf(node)}`, lines: end - start + 1, complexity: complexity(node) });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  lines[part] = count;
}

console.log('non-blank lines:', JSON.stringify(lines), 'app total (domain+server+web):', lines.domain + lines.server + lines['web/src']);
const top = (key) => [...functions].sort((a, b) => b[key] - a[key]).slice(0, 5);
console.log('largest functions by lines:');
for (const f of top('lines')) console.log(`  ${f.lines} lines, complexity ${f.complexity}: ${f.where}`);
console.log('most branching functions:');
for (const f of top('complexity')) console.log(`  complexity ${f.complexity}, ${f.lines} lines: ${f.where}`);
