/**
 * Lists exports nothing imports: every `export` of a module under src/, test/, e2e/, bench/ and
 * scripts/ that no other module imports (directly, through a re-export, or through `import *`).
 * A re-export counts as a use of its source only when the re-export itself is used, so an index.ts
 * that forwards a name nobody asks for reports that name and does not keep its source alive.
 *
 * Usage: `npx tsx scripts/unusedExports.ts [--count] [--check]`. With `--check` (npm run lint) it
 * exits 1 when a row is left. A tool's config file (`*.config.ts`) is an entry point: its default
 * export is read by the tool, not imported.
 */
import ts from 'typescript';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

interface ModuleInfo {
  /** Names this module declares and exports itself. */
  local: Set<string>;
  /** Exported name → where it comes from (`export { a as b } from`, `export * as ns from`: orig '*'). */
  reexports: Map<string, { from: string; orig: string }>;
  /** `export * from` sources. */
  stars: string[];
}

function loadProgram(): ts.Program {
  const configPath = path.join(ROOT, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  return ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
}

/** Entry points whose default export their tool reads (vite, vitest, playwright). */
function isToolConfig(file: string): boolean {
  return /\.config\.[cm]?ts$/.test(file);
}

function isOurs(file: string): boolean {
  return file.startsWith(ROOT + path.sep) && !file.includes(`${path.sep}node_modules${path.sep}`);
}

function resolver(program: ts.Program): (specifier: string, fromFile: string) => string | null {
  const options = program.getCompilerOptions();
  return (specifier, fromFile) => {
    const resolved = ts.resolveModuleName(specifier, fromFile, options, ts.sys).resolvedModule?.resolvedFileName;
    return resolved && isOurs(resolved) ? path.resolve(resolved) : null;
  };
}

function hasExportModifier(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function isDefaultExport(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
}

function declaredNames(statement: ts.Statement): string[] {
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
  }
  const named = statement as ts.Statement & { name?: ts.Identifier };
  return named.name && ts.isIdentifier(named.name) ? [named.name.text] : [];
}

function readModule(source: ts.SourceFile, resolve: (s: string, f: string) => string | null): ModuleInfo {
  const info: ModuleInfo = { local: new Set(), reexports: new Map(), stars: [] };
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const from =
        statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
          ? resolve(statement.moduleSpecifier.text, source.fileName)
          : null;
      const clause = statement.exportClause;
      if (!statement.moduleSpecifier) {
        if (clause && ts.isNamedExports(clause)) for (const el of clause.elements) info.local.add(el.name.text);
      } else if (from && !clause) {
        info.stars.push(from);
      } else if (from && clause && ts.isNamespaceExport(clause)) {
        info.reexports.set(clause.name.text, { from, orig: '*' });
      } else if (from && clause && ts.isNamedExports(clause)) {
        for (const el of clause.elements) info.reexports.set(el.name.text, { from, orig: (el.propertyName ?? el.name).text });
      }
    } else if (ts.isExportAssignment(statement)) {
      info.local.add('default');
    } else if (hasExportModifier(statement)) {
      if (isDefaultExport(statement)) info.local.add('default');
      else for (const name of declaredNames(statement)) info.local.add(name);
    }
  }
  return info;
}

/** Every (module, name) another module imports, or '*' for a whole-module use. */
function collectImports(source: ts.SourceFile, resolve: (s: string, f: string) => string | null): Array<[string, string]> {
  const uses: Array<[string, string]> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const from = resolve(node.moduleSpecifier.text, source.fileName);
      const clause = node.importClause;
      if (from && clause) {
        if (clause.name) uses.push([from, 'default']);
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) uses.push([from, '*']);
        if (bindings && ts.isNamedImports(bindings))
          for (const el of bindings.elements) uses.push([from, (el.propertyName ?? el.name).text]);
      }
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      const from = arg && ts.isStringLiteral(arg) ? resolve(arg.text, source.fileName) : null;
      if (from) uses.push([from, '*']);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      const from = resolve(node.argument.literal.text, source.fileName);
      const first = node.qualifier && (ts.isIdentifier(node.qualifier) ? node.qualifier : node.qualifier.left);
      if (from) uses.push([from, first && ts.isIdentifier(first) ? first.text : '*']);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return uses;
}

function main(): void {
  const program = loadProgram();
  const resolve = resolver(program);
  const sources = program.getSourceFiles().filter((s) => isOurs(s.fileName) && !s.isDeclarationFile);
  const modules = new Map(sources.map((s) => [path.resolve(s.fileName), readModule(s, resolve)]));
  const used = new Map<string, Set<string>>();

  const exportedNames = (file: string, seen = new Set<string>()): string[] => {
    const info = modules.get(file);
    if (!info || seen.has(file)) return [];
    seen.add(file);
    const starNames = info.stars.flatMap((from) => exportedNames(from, seen)).filter((n) => n !== 'default');
    return [...info.local, ...info.reexports.keys(), ...starNames];
  };

  const markUsed = (file: string, name: string, seen = new Set<string>()): void => {
    const info = modules.get(file);
    const key = `${file}\0${name}`;
    if (!info || seen.has(key)) return;
    seen.add(key);
    if (name === '*') {
      for (const exported of exportedNames(file)) markUsed(file, exported, seen);
      return;
    }
    const names = used.get(file) ?? new Set<string>();
    used.set(file, names);
    names.add(name);
    const reexport = info.reexports.get(name);
    if (reexport) return markUsed(reexport.from, reexport.orig, seen);
    if (!info.local.has(name)) for (const from of info.stars) markUsed(from, name, seen);
  };

  for (const source of sources) for (const [from, name] of collectImports(source, resolve)) markUsed(from, name);

  const rows: string[] = [];
  for (const [file, info] of modules) {
    const names = used.get(file) ?? new Set<string>();
    for (const name of [...info.local, ...info.reexports.keys()]) {
      if (name === 'default' && isToolConfig(file)) continue;
      if (!names.has(name)) rows.push(`${path.relative(ROOT, file)}: ${name}${info.reexports.has(name) ? ' (re-export)' : ''}`);
    }
  }
  rows.sort();
  if (!process.argv.includes('--count')) for (const row of rows) console.log(row);
  console.log(`${rows.length} unused exports`);
  if (process.argv.includes('--check') && rows.length > 0) process.exitCode = 1;
}

main();
