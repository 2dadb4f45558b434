/** `npm run sandbox -- [flags]`: the simulator alone; one JSON line on stdout, logs on stderr, until SIGINT/SIGTERM. */
import pino from 'pino';
import { optionsFromArgs, startSimulator } from '../sandbox';

async function main(): Promise<void> {
  let options;
  try {
    options = optionsFromArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
  const logger = pino({ name: 'sandbox', base: undefined }, pino.destination(2));
  const sim = await startSimulator(options, logger);
  const { close, ...endpoints } = sim;
  process.stdout.write(`${JSON.stringify(endpoints)}\n`);
  const stop = (signal: NodeJS.Signals): void => {
    logger.info({ signal }, 'stopping');
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
