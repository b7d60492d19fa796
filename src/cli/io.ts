// Where the command line reads and writes: standard streams in a real run, strings in tests. Every line goes
// through one redaction, so the API key never reaches the output, whatever an error carries.
import { createInterface } from 'node:readline';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Both standard input and output are a terminal (a person can be asked). */
  interactive: boolean;
  /** The whole of standard input. */
  readStdin(): Promise<string>;
  /** Asks one question on the terminal; the answer's line. */
  ask(question: string): Promise<string>;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export const EXIT = { ok: 0, error: 1, changes: 2 } as const;

/** The LangSmith CLI profile a connection's credentials come from. */
export interface ProfileSource {
  file: string;
  name: string;
  /** Its login (OAuth), not its api_key. */
  login: boolean;
  /** `profile "x" in ~/.langsmith/config.json`: how errors name it. */
  description: string;
}

/** Output that never shows the given secrets. */
export class Output {
  private readonly secrets: string[] = [];
  /** The endpoint of the connection, once made (errors name it). */
  endpoint?: string;
  /** The profile of the LangSmith CLI the connection's credentials come from, if any (errors name it). */
  profile?: ProfileSource;
  constructor(private readonly io: Io) {}

  /** Adds a secret to hide from now on (an empty or very short one is ignored: it would garble the text). */
  hide(secret: string | undefined): void {
    if (secret && secret.length >= 4 && !this.secrets.includes(secret)) this.secrets.push(secret);
  }

  redact(text: string): string {
    let s = text;
    for (const secret of this.secrets) s = s.split(secret).join('[redacted]');
    return s;
  }

  line(text = ''): void {
    this.io.out(`${this.redact(text)}\n`);
  }

  error(text: string): void {
    this.io.err(`${this.redact(text)}\n`);
  }
}

export function processIo(): Io {
  return {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    interactive: !!process.stdin.isTTY && !!process.stdout.isTTY,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    ask: (question) =>
      new Promise((resolve) => {
        const rl = createInterface({ input: process.stdin, output: process.stdout });
        rl.question(question, (answer) => {
          rl.close();
          resolve(answer);
        });
        rl.once('close', () => resolve(''));
      }),
    cwd: process.cwd(),
    env: process.env,
  };
}
