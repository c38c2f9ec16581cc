import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * What a test or a script has set up and must undo: each undo is pushed as its thing is set up, and stopAll()
 * runs them last first, each once, a failing one handed to `onError` without keeping the rest from running.
 * Vitest-free, so scripts use it as the tests do.
 */
export class Stops {
  private readonly undos: Array<() => unknown> = [];

  constructor(private readonly onError: (err: unknown) => void = () => undefined) {}

  push(undo: () => unknown): void {
    this.undos.push(undo);
  }

  /** A fresh folder in the system's temporary folder, its name starting with `prefix`; removed with the rest. */
  tempDir(prefix: string): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    this.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  async stopAll(): Promise<void> {
    for (let undo = this.undos.pop(); undo; undo = this.undos.pop()) {
      try {
        await undo();
      } catch (err) {
        this.onError(err);
      }
    }
  }
}
