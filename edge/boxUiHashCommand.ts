import readline from 'node:readline';
import { Writable } from 'node:stream';
import { hashPassword, MIN_PASSWORD_LENGTH } from './boxUiCredential';

/**
 * `node edge-agent.js hash-password`: asks for the box UI password twice (not echoed on a
 * terminal; from a pipe, the first two lines) and prints the SVC_BOX_UI_PASSWORD_HASH line for
 * the .env. Exit 0 printed, 2 the two entries differ or the password is too short.
 */
export async function runHashPasswordCommand(
  input: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin,
  out: (line: string) => void = (line) => process.stdout.write(line + '\n'),
  prompt: (text: string) => void = (text) => process.stderr.write(text),
): Promise<number> {
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const lines = readline.createInterface({ input, output: silent, terminal: input.isTTY === true });
  const iterator = lines[Symbol.asyncIterator]();
  const ask = async (text: string): Promise<string | undefined> => {
    prompt(text);
    const next = await iterator.next();
    if (input.isTTY) prompt('\n');
    return next.done ? undefined : next.value;
  };
  try {
    const first = await ask(`Box UI password (at least ${MIN_PASSWORD_LENGTH} characters, not shown): `);
    const second = await ask('Again: ');
    if (first === undefined || first !== second) {
      prompt('The two entries differ (or one is missing); nothing printed.\n');
      return 2;
    }
    if (first.length < MIN_PASSWORD_LENGTH) {
      prompt(`The password must have at least ${MIN_PASSWORD_LENGTH} characters; nothing printed.\n`);
      return 2;
    }
    out(`SVC_BOX_UI_PASSWORD_HASH=${await hashPassword(first)}`);
    return 0;
  } finally {
    lines.close();
  }
}
