// The CLI as rg, jq or duckdb present themselves (issue 42): examples in each verb's --help that
// parse as given, -v / --version / version, scan --help naming s3:// and URLs, counts in the
// singular for one, and the completion script, run by real bash and by real zsh (through its
// bashcompinit, where zsh is installed).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const VERSION = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
const SMALL = `${FIXTURES}tsfile/tree_10series.tsfile`;

const run = (args, options = {}) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000, ...options });

// Listed here, from the issue and the README, not from the CLI's tables.
const VERBS = ['inspect', 'probe', 'verify', 'build', 'scan', 'version', 'completions', 'help'];

let tmp;
before(() => {
  tmp = mkdtempSync(join(tmpdir(), 'tsfile-bloom-help-'));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

/** The `tsfile-bloom …` command of an example line: its words, up to a pipe, a redirect or a `;`. */
function exampleArgs(line) {
  const at = line.indexOf('tsfile-bloom ');
  const words = [];
  // Words, a quoted one as one word (quotes removed), as a shell would split this simple text.
  for (const m of line.slice(at + 'tsfile-bloom '.length).matchAll(/'([^']*)'|"([^"]*)"|([^\s'";|<>]+)|([;|<>])/g)) {
    if (m[4]) break;
    words.push(m[1] ?? m[2] ?? m[3]);
  }
  return words;
}

describe('help', () => {
  test('every verb\'s --help ends with two or three examples, each a command the CLI parses', () => {
    for (const verb of VERBS) {
      const help = run([verb, '--help']);
      assert.equal(help.status, 0, verb);
      const examples = help.stdout.split('\nexamples:\n')[1]?.trimEnd().split('\n').map((l) => l.trim());
      assert.ok(examples && examples.length >= 2 && examples.length <= 4, `${verb}: ${examples}`);
      for (const line of examples) {
        const args = exampleArgs(line);
        // It runs the verb (help and version: or their flags, -v, probe --help).
        assert.ok(args[0] === verb || { version: ['-v', '--version'], help: VERBS }[verb]?.includes(args[0]), line);
        // Its files do not exist here and its URLs answer nothing: a usage error is all that is looked for.
        const unreachable = args.map((a) => (/:\/\//.test(a) ? 'http://127.0.0.1:1/x.tsfile' : a));
        const r = run(unreachable, { cwd: tmp, input: '' });
        assert.doesNotMatch(r.stderr, /^tsfile-bloom( \w+)?: /m, `${line}: ${r.stderr}`);
      }
    }
  });

  test('-v, -V, --version and version print the version, exit 0', () => {
    for (const args of [['-v'], ['-V'], ['--version'], ['version']]) {
      const r = run(args);
      assert.deepEqual([r.status, r.stdout, r.stderr], [0, `${VERSION}\n`, ''], args.join(' '));
    }
    const extra = run(['version', 'x']);
    assert.deepEqual([extra.status, extra.stdout], [2, '']);
    assert.match(extra.stderr, /^tsfile-bloom version: takes no arguments/);
    assert.match(run(['--help']).stdout, /tsfile-bloom --help \| -v \| --version \| version/);
  });

  test('scan --help names s3:// and http(s):// targets', () => {
    const help = run(['scan', '--help']).stdout;
    assert.match(help, /s3:\/\/bucket\/prefix\//);
    assert.match(help, /http\(s\):\/\//);
    assert.match(help, /tsfile-bloom scan s3:\/\//, 'an example with an s3:// target');
  });

  test('probe --help says its exit status by verdict', () => {
    const help = run(['probe', '--help']).stdout;
    assert.match(help, /exit +0 some PATH \(KEY\) may be in the file/);
    assert.match(help, /1 every PATH is 'absent'/);
    assert.match(help, /-q, --quiet/);
  });
});

describe('counts: one is singular', () => {
  test('a scan of one file says "1 file"; of two, "2 files"', () => {
    const one = run(['scan', SMALL, '--path', 'root.a.b']);
    assert.equal(one.status, 0, one.stderr);
    assert.match(one.stdout, /\n1 file: 1 ok, 0 with errors\n/);
    assert.match(one.stdout, /of 1 file can be skipped for root\.a\.b/);
    assert.doesNotMatch(one.stdout, /\b1 files\b/);
    const dir = join(tmp, 'two');
    mkdirSync(dir);
    copyFileSync(SMALL, join(dir, 'a.tsfile'));
    copyFileSync(SMALL, join(dir, 'b.tsfile'));
    const two = run(['scan', dir, '--path', 'root.a.b', '--csv']);
    assert.match(two.stderr, /^2 files: 2 ok, 0 with errors\n/);
    assert.match(two.stderr, /of 2 files can be skipped/);
  });

  test('build and inspect count in the singular for one', () => {
    const paths = join(tmp, 'one-path.txt');
    writeFileSync(paths, 'root.sg.d1.s1\n');
    const built = run(['build', paths, '--out', join(tmp, 'one.bin')]);
    assert.equal(built.status, 0, built.stderr);
    assert.match(built.stderr, /, 1 path\n$/);
    // A file whose table model has no time column: "+0 time columns"; C++'s tree file, "+1".
    assert.match(run(['inspect', SMALL]).stdout, /\nseries     10 \(\+0 time columns\)\n/);
  });
});

describe('completions', () => {
  const script = (shell) => {
    const r = run(['completions', shell]);
    assert.deepEqual([r.status, r.stderr], [0, ''], shell);
    return r.stdout;
  };

  test('an unknown shell is a usage error with a suggestion', () => {
    const r = run(['completions', 'bsh']);
    assert.deepEqual([r.status, r.stdout], [2, '']);
    assert.equal(r.stderr, 'tsfile-bloom completions: unknown shell "bsh"; did you mean bash?\n');
    assert.equal(run(['completions']).status, 2);
  });

  test('bash: sourced by real bash, it completes verbs, flags, their values and files', () => {
    const file = join(tmp, 'completion.bash');
    writeFileSync(file, script('bash'));
    writeFileSync(join(tmp, 'data.tsfile'), '');
    // Each round: COMP_WORDS as bash would set them for the words typed, then the candidates.
    const rounds = {
      'tsfile-bloom pro': ['probe'],
      'tsfile-bloom ver': ['verify', 'version'],
      'tsfile-bloom probe data.tsfile root.a --cha': ['--charset'],
      'tsfile-bloom probe data.tsfile root.a --charset G': ['GBK', 'GB18030'],
      'tsfile-bloom probe data.tsfile root.a --charset = windows': ['windows-31j', 'windows-1252'],
      'tsfile-bloom probe data.tsfile --variant ': ['java', 'zero-extended'],
      'tsfile-bloom probe data.tsfile -': null, // every flag of probe: checked below
      'tsfile-bloom scan --list ': ['maybe', 'absent'],
      'tsfile-bloom scan --man': ['--manifest'],
      'tsfile-bloom inspect dat': ['data.tsfile'],
      'tsfile-bloom inspect --timeout ': [],
      'tsfile-bloom completions ': ['bash', 'zsh'],
      'tsfile-bloom help b': ['build'],
      'tsfile-bloom --ver': ['--version'],
    };
    const program = [
      `source ${JSON.stringify(file)}`,
      'complete -p tsfile-bloom',
      ...Object.keys(rounds).map((typed) => {
        const words = typed.split(' ');
        return `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _tsfile_bloom; echo "[$(IFS=,; echo "\${COMPREPLY[*]}")]"`;
      }),
    ].join('\n');
    const r = spawnSync('bash', ['--norc', '--noprofile', '-c', program], { cwd: tmp, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    const [registered, ...replies] = r.stdout.trimEnd().split('\n');
    assert.equal(registered, 'complete -F _tsfile_bloom tsfile-bloom');
    Object.entries(rounds).forEach(([typed, expected], i) => {
      const got = replies[i].slice(1, -1).split(',').filter(Boolean);
      if (expected) assert.deepEqual(got.sort(), [...expected].sort(), typed);
    });
    const probeFlags = replies[Object.keys(rounds).indexOf('tsfile-bloom probe data.tsfile -')].slice(1, -1).split(',');
    for (const f of ['--json', '-q', '--quiet', '--variant', '--charset', '--hex', '-H', '--header', '--allow-full-download', '--timeout', '--max-index-bytes', '--max-stdin-bytes', '-h', '--help']) {
      assert.ok(probeFlags.includes(f), `probe's ${f}: ${probeFlags}`);
    }
    assert.ok(!probeFlags.includes('--all'), 'only probe\'s own flags');
  });

  test('zsh: real zsh loads the script through bashcompinit, and it completes verbs, flags and values', { skip: spawnSync('zsh', ['--version']).status !== 0 && 'zsh is not installed' }, () => {
    const file = join(tmp, 'completion.zsh');
    writeFileSync(file, script('zsh'));
    // Each round as zsh's _bash_complete makes it: COMP_WORDS and COMP_CWORD, then compgen -F.
    const rounds = {
      'tsfile-bloom pro': ['probe'],
      'tsfile-bloom probe x --charset G': ['GBK', 'GB18030'],
      'tsfile-bloom scan --list ': ['maybe', 'absent'],
      'tsfile-bloom scan --man': ['--manifest'],
      'tsfile-bloom completions ': ['bash', 'zsh'],
    };
    const program = [
      'autoload -U compinit; compinit -u',
      `source ${JSON.stringify(file)}`,
      'complete -p',
      'round() { local -a COMP_WORDS; local COMP_CWORD; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); echo "[${(j:,:)${(f)"$(compgen -F _tsfile_bloom -- ${@[-1]})"}}]"; }',
      ...Object.keys(rounds).map((typed) => `round ${typed.split(' ').map((w) => `'${w}'`).join(' ')}`),
    ].join('\n');
    const r = spawnSync('zsh', ['-f', '-c', program], { cwd: tmp, encoding: 'utf8' });
    assert.deepEqual([r.status, r.stderr], [0, '']);
    const lines = r.stdout.trimEnd().split('\n');
    assert.ok(lines.includes('complete -F _tsfile_bloom tsfile-bloom'), r.stdout);
    const replies = lines.slice(-Object.keys(rounds).length);
    Object.entries(rounds).forEach(([typed, expected], i) => {
      // zsh itself keeps the candidates that start with the word typed (its compgen leaves that to it).
      const got = replies[i].slice(1, -1).split(',').filter((w) => w && w.startsWith(typed.split(' ').at(-1)));
      assert.deepEqual(got.sort(), [...expected].sort(), typed);
    });
  });

  test('fish is not a shell it writes for (a usage error)', () => {
    const r = run(['completions', 'fish']);
    assert.deepEqual([r.status, r.stdout], [2, '']);
    assert.match(r.stderr, /^tsfile-bloom completions: unknown shell "fish" \(shells: bash, zsh\)/);
  });
});
