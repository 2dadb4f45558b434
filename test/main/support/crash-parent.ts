// The test side of the crash children: start one with its job, wait for its `AT <point>` line, SIGKILL it there.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Runs `file` under tsx with its job in CRASH_JOB and resolves with its first `AT …` line (and when it came); rejects
 * on any other line, an early exit, or no line within 15 s. The child is pushed to `children` for the test's cleanup.
 */
export function runToCrashPoint(
  file: string,
  job: { point: string },
  children: ChildProcess[],
): Promise<{ child: ChildProcess; line: string; at: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: REPO,
    env: { ...process.env, CRASH_JOB: JSON.stringify(job) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout ?? process.stdin });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the child did not reach ${job.point} in time; stderr: ${stderr}`)),
      15_000,
    );
    lines.on('line', (line) => {
      clearTimeout(timer);
      if (line.startsWith('AT ')) resolve({ child, line, at: Date.now() });
      else reject(new Error(`the child said "${line}"; stderr: ${stderr}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the child exited (${code ?? signal ?? '?'}) before a crash point; stderr: ${stderr}`));
    });
  });
}

/** Kills the child dead and checks that SIGKILL is what ended it. */
export async function sigkill(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  expect(child.kill('SIGKILL')).toBe(true);
  const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
  expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
}
