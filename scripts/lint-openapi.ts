/**
 * Lints the OpenAPI document the facade serves with the two tools clients and gateways use:
 * Spectral (`spectral:oas`, .spectral.yaml) and Redocly CLI (`recommended`, redocly.yaml).
 * Fails on any error or warning of either. `npm run lint:openapi`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fromRoot } from '../common/platform/paths';
import { openApiDocument } from '../rest-facade/src/openapi/document';

interface Problem {
  severity: 'error' | 'warning' | 'info';
  rule: string;
  message: string;
  /** JSON pointer into the document. */
  at: string;
}

const pointer = (segments: Array<string | number>) =>
  `#/${segments.map((s) => String(s).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

/** Runs a tool's CLI with the project's Node; its JSON report is on stdout whatever its exit code. */
function runTool(bin: string, args: string[]): unknown {
  const result = spawnSync(process.execPath, [fromRoot('node_modules', '.bin', bin), ...args], {
    cwd: fromRoot(),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    // Redocly CLI would otherwise send usage telemetry and look for a newer version online.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  try {
    return JSON.parse(result.stdout);
  } catch {
    throw new Error(
      `${bin} ${args.join(' ')} gave no JSON report (exit ${result.status ?? result.signal}):\n${result.stderr}${result.stdout}`,
    );
  }
}

const SPECTRAL_SEVERITIES = ['error', 'warning', 'info', 'info'] as const;

function spectral(file: string): Problem[] {
  const results = runTool('spectral', [
    'lint',
    file,
    '--ruleset',
    fromRoot('.spectral.yaml'),
    '--format',
    'json',
    '--quiet',
  ]) as Array<{ code: string; message: string; severity: number; path: Array<string | number> }>;
  return results.map((r) => ({
    severity: SPECTRAL_SEVERITIES[r.severity] ?? 'error',
    rule: r.code,
    message: r.message,
    at: pointer(r.path),
  }));
}

function redocly(file: string): Problem[] {
  const report = runTool('redocly', [
    'lint',
    file,
    '--config',
    fromRoot('redocly.yaml'),
    '--format',
    'json',
    '--max-problems',
    '10000',
  ]) as {
    problems: Array<{
      ruleId: string;
      severity: 'error' | 'warn';
      message: string;
      location: Array<{ pointer?: string }>;
    }>;
  };
  return report.problems.map((p) => ({
    severity: p.severity === 'warn' ? 'warning' : p.severity,
    rule: p.ruleId,
    message: p.message,
    at: p.location[0]?.pointer ?? '#',
  }));
}

function report(tool: string, problems: Problem[]): number {
  for (const p of problems)
    console.log(`${tool}  ${p.severity}  ${p.rule}  ${p.at}\n    ${p.message}`);
  const count = (severity: Problem['severity']) =>
    problems.filter((p) => p.severity === severity).length;
  const failing = count('error') + count('warning');
  console.log(
    `${tool}: ${count('error')} errors, ${count('warning')} warnings, ${count('info')} infos`,
  );
  return failing;
}

function main(): void {
  const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
  try {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
    const failing = report('spectral', spectral(file)) + report('redocly', redocly(file));
    if (failing > 0) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  main();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
