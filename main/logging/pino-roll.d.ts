// Types for pino-roll (it ships none): the options this app uses and the SonicBoom stream it resolves to.
declare module 'pino-roll' {
  import type { EventEmitter } from 'node:events';

  namespace pinoRoll {
    interface Options {
      /** Base path; a rotation number (and the extension) is appended: app → app.1.log. */
      file: string | (() => string);
      /** Rotate when the file reaches this size: a number of MB, or '5m', '500k', '1g'. */
      size?: string | number;
      frequency?: 'daily' | 'hourly' | number;
      extension?: string;
      symlink?: boolean;
      limit?: { count: number; removeOtherLogFiles?: boolean };
      dateFormat?: string;
      /** SonicBoom options. */
      mkdir?: boolean;
      sync?: boolean;
      minLength?: number;
      fsync?: boolean;
      mode?: number;
    }

    /** The SonicBoom destination pino writes to. */
    interface RollStream extends EventEmitter {
      readonly file: string;
      readonly destroyed: boolean;
      write(data: string): boolean;
      flush(callback?: (error?: Error) => unknown): void;
      end(): void;
    }
  }

  function pinoRoll(options: pinoRoll.Options): Promise<pinoRoll.RollStream>;
  export = pinoRoll;
}
