import { newPasswordProblem } from '../domain/password.js';
import { UsageError } from './errors.js';

export interface PasswordOptions {
  /** given on the command line: visible to every user of the machine in `ps` */
  password?: string;
  passwordStdin?: boolean;
}

export interface Terminal {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(mode: boolean): unknown };
  stderr: { write(text: string): unknown };
}

/**
 * A new password for an account, from a hidden prompt when standard input is a terminal (asked
 * twice), otherwise from the first line of standard input (`--password-stdin`, or whenever it is
 * piped). `--password` still works for old scripts, with a warning. Whatever the source, it must
 * pass the server's own rule for new passwords.
 */
export async function readNewPassword(
  options: PasswordOptions,
  terminal: Terminal,
  whose: string,
): Promise<string> {
  let password: string;
  if (options.password !== undefined) {
    if (options.passwordStdin)
      throw new UsageError('Give the password with --password-stdin or --password, not both');
    terminal.stderr.write(
      'Warning: a password given with --password is visible to other users of this machine ' +
        '(ps, shell history); leave it out to be asked for it, or pipe it with --password-stdin.\n',
    );
    password = options.password;
  } else if (terminal.stdin.isTTY && terminal.stdin.setRawMode) {
    password = await promptHidden(terminal, `New password for ${whose}: `);
    checkNewPassword(password);
    if ((await promptHidden(terminal, 'The same password again: ')) !== password)
      throw new UsageError('The two passwords differ');
  } else {
    password = await firstLine(terminal.stdin);
  }
  checkNewPassword(password);
  return password;
}

/** The server's rule for a new password (domain/password.ts), with its words. */
export function checkNewPassword(password: string) {
  if (!password) throw new UsageError('No password was given');
  const problem = newPasswordProblem(password);
  if (problem) throw new UsageError(problem);
}

/** The first line of a piped input, without its line ending; it is not read further. */
function firstLine(input: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const finish = () => {
      input.off('data', onData);
      input.off('end', finish);
      input.off('error', reject);
      input.pause();
      resolve(text.split('\n')[0]!.replace(/\r$/, ''));
    };
    const onData = (chunk: Buffer | string) => {
      text += chunk.toString();
      if (text.includes('\n')) finish();
    };
    input.on('data', onData);
    input.on('end', finish);
    input.on('error', reject);
    input.resume();
  });
}

/** Reads a line from the terminal without echoing it. */
function promptHidden(terminal: Terminal, question: string): Promise<string> {
  const { stdin, stderr } = terminal;
  return new Promise((resolve, reject) => {
    let value = '';
    const done = () => {
      stdin.off('data', onData);
      stdin.setRawMode!(false);
      stdin.pause();
      stderr.write('\n');
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of chunk.toString()) {
        if (ch === '\r' || ch === '\n' || (ch === '\u0004' && value)) {
          done();
          return resolve(value);
        }
        if (ch === '\u0003' || ch === '\u0004') {
          done();
          return reject(new UsageError('Cancelled: no password was given'));
        }
        if (ch === '\u007f' || ch === '\b') value = [...value].slice(0, -1).join('');
        else if (ch === '\u0015') value = '';
        else if (ch >= ' ') value += ch;
      }
    };
    // Echo off before the question: what is typed as soon as it shows must not appear.
    stdin.setRawMode!(true);
    stdin.on('data', onData);
    stdin.resume();
    stderr.write(question);
  });
}
