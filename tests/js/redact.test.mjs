// A presigned URL's secrets never reach an output (issue 39): its signature, credential and
// session token (S3's Signature V4: X-Amz-Signature, X-Amz-Credential, X-Amz-Security-Token;
// V2: Signature, AWSAccessKeyId, x-amz-security-token), and a URL's password, are shown as
// REDACTED — names kept — in every error (`message`, `url`), every scan record (`file`, its
// error) and every line of the CLI (inspect, probe, verify, scan: text, --json, --csv, errors),
// through the API in Node and the browsers' scanner. `scan --list` writes each location as it was
// given (the next tool reads the file by it). Against real servers started here: s3s-fs verifying
// presigned V4 URLs (signed by aws4fetch, with and without a session token), and npm's
// http-server, which ignores a query (a V2 URL's, a password's).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AwsClient } from 'aws4fetch';
import { openTsFile, scanTsFiles } from '../../js/node.js';
import { scanTsFiles as scanInBrowser } from '../../js/scan-browser.js';
import { listingTsFiles } from '../../js/s3.js';
import { S3S, startHttpServer, startS3s } from './servers.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'js/cli.js');
const KEYS = { accessKeyId: 'AKIAREDACTKEYID0001', secretAccessKey: 'redact-secret/key+value' };
const TOKEN = 'FwoGZXIvYXdzEXAMPLESESSIONTOKEN/with+slash=';
const PRESENT = 'root.sg1.d1.s_int32'; // in tree_10series: 'maybe'
const NOWHERE = 'root.nowhere.d.s'; // 'absent' there
// A V2 presigned URL's query (http-server ignores it): its values are the secrets.
const V2 = { AWSAccessKeyId: 'AKIAV2ACCESSKEYID02', Expires: '1893456000', Signature: 'vjbyPxybdZaNmGa+yT272YEAiv4=', 'x-amz-security-token': 'V2SESSIONTOKENVALUE' };
const v2Query = () => new URLSearchParams(V2).toString();

let dir;
let s3s; // verifies signatures
let plain; // http-server

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tsfile-bloom-redact-'));
  for (const root of ['store/bkt/d', 'www/v2']) {
    cpSync(join(ROOT, 'tests/fixtures/tsfile/tree_10series.tsfile'), join(dir, root, 'a.tsfile'));
    cpSync(join(ROOT, 'tests/fixtures/tsfile/hostile_bad_tail_magic.tsfile'), join(dir, root, 'bad.tsfile'));
  }
  cpSync(join(ROOT, 'tests/fixtures/leveldb/ascii_bits4_snappy-000008.ldb'), join(dir, 'store/bkt/d/t.ldb'));
  plain = await startHttpServer(join(dir, 'www'));
  if (S3S) s3s = await startS3s(join(dir, 'store'), KEYS);
});

after(async () => {
  await s3s?.stop();
  await plain?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A V4 presigned GET of `path` on s3s-fs (aws4fetch); `keys` other than the store's make a URL it refuses. */
async function presign(path, { token = null, keys = KEYS } = {}) {
  const signer = new AwsClient({ ...keys, ...(token ? { sessionToken: token } : {}), service: 's3', region: 'us-east-1' });
  return (await signer.sign(`${s3s.origin}${path}`, { method: 'GET', aws: { signQuery: true } })).url;
}

/** Every secret a URL holds, as it is written in the URL and percent-decoded, and the keys' own. */
function secretsOf(...urls) {
  const out = new Set([KEYS.accessKeyId, KEYS.secretAccessKey, TOKEN, V2.AWSAccessKeyId, V2.Signature, V2['x-amz-security-token']]);
  for (const url of urls) {
    const u = new URL(url);
    if (u.password) out.add(u.password);
    for (const [name, value] of u.searchParams) {
      if (/^(x-amz-signature|x-amz-credential|x-amz-security-token|signature|awsaccesskeyid)$/i.test(name)) {
        out.add(value);
        out.add(encodeURIComponent(value));
      }
    }
  }
  return [...out].filter((s) => s.length >= 8);
}

/** `text` holds none of `secrets` (the message says which, without quoting the text). */
function assertClean(text, secrets, what) {
  for (const s of secrets) assert.ok(!text.includes(s), `${what} holds a secret (${s.slice(0, 4)}…): ${text.slice(0, 400)}`);
}

/** Runs the CLI: `{status, stdout, stderr}` (strings). */
function cli(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_SESSION_TOKEN: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Runs the CLI with stdout on a terminal (script(1)): what the terminal got, `\r` dropped. */
function onTerminal(args) {
  const quote = (a) => `'${a.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, CLI, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', `${command} 2>/dev/null`, '/dev/null'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', () => resolve(out.replace(/\r/g, '')));
  });
}
const HAS_SCRIPT = spawnSync('script', ['--version']).status === 0;

async function all(scan) {
  const records = [];
  for await (const r of scan) records.push(r);
  return { records, summary: await scan.summary };
}

test('redactUrl: the secrets of S3 V4 and V2, GCS and Azure query strings and a password, names kept, any case; the rest exactly as written', async () => {
  const { redactUrl } = await import('../../js/redact.js');
  const cases = [
    ['https://b.s3.amazonaws.com/k%20x.tsfile?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F20260101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Security-Token=Fwo%2Bz&X-Amz-Signature=0a1b#part',
      'https://b.s3.amazonaws.com/k%20x.tsfile?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=REDACTED&X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Security-Token=REDACTED&X-Amz-Signature=REDACTED#part'],
    ['http://h/b/k.tsfile?AWSAccessKeyId=AKIA&Expires=1&Signature=a%2Bb%3D&x-amz-security-token=t&versionId=3',
      'http://h/b/k.tsfile?AWSAccessKeyId=REDACTED&Expires=1&Signature=REDACTED&x-amz-security-token=REDACTED&versionId=3'],
    ['HTTPS://h/k?x-amz-signature=s&X-AMZ-CREDENTIAL=c&awsaccesskeyid=a&SIGNATURE=g&X%2DAmz%2DSecurity%2DToken=t',
      'HTTPS://h/k?x-amz-signature=REDACTED&X-AMZ-CREDENTIAL=REDACTED&awsaccesskeyid=REDACTED&SIGNATURE=REDACTED&X%2DAmz%2DSecurity%2DToken=REDACTED'],
    ['https://storage.googleapis.com/b/k?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=sa%40p&X-Goog-Signature=ab', 'https://storage.googleapis.com/b/k?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=REDACTED&X-Goog-Signature=REDACTED'],
    ['https://a.blob.core.windows.net/c/k?sv=2022-11-02&sp=r&sig=abc%3D', 'https://a.blob.core.windows.net/c/k?sv=2022-11-02&sp=r&sig=REDACTED'],
    ['https://user:pa%40ss@h:8443/k?q=1', 'https://user:REDACTED@h:8443/k?q=1'],
    ['https://ghp_tokenvalue@h/k', 'https://REDACTED@h/k'],
    ['https://h/k?Signature', 'https://h/k?Signature'], // a name without a value: nothing to hide
    ['https://h/a/./b/%7e?x=1&&y=2#Signature=z', 'https://h/a/./b/%7e?x=1&&y=2#Signature=z'], // never normalised; a fragment is not sent
    ['data/x.tsfile?X-Amz-Signature=s', 'data/x.tsfile?X-Amz-Signature=REDACTED'], // a page's relative URL
    ['s3://b/k?X-Amz-Signature=s', 's3://b/k?X-Amz-Signature=s'], // an s3:// key is taken literally
  ];
  for (const [given, shown] of cases) assert.equal(redactUrl(given), shown, given);
  assert.equal(redactUrl(new URL('https://h/k?Signature=s')), 'https://h/k?Signature=REDACTED');
});

test('a runtime\'s own error that quotes the URL (Node\'s fetch refuses a URL with a password) is quoted with the URL\'s secrets REDACTED', async () => {
  const url = `${plain.origin.replace('//', '//tsuser:PASSWORD-VALUE-2@')}/v2/a.tsfile?${v2Query()}`;
  const listing = `${plain.origin.replace('//', '//tsuser:PASSWORD-VALUE-2@')}/bkt?list-type=2&${v2Query()}`;
  const secrets = secretsOf(url);
  const err = await openTsFile(url, { fetch: globalThis.fetch }).then(() => null, (e) => e);
  assert.deepEqual([err?.kind, err?.reason], ['io', 'network'], err?.message);
  assert.match(err.message, /includes credentials: http:\/\/tsuser:REDACTED@.*Signature=REDACTED.*\): http/, 'fetch\'s sentence quoted, its URL redacted');
  assertClean(`${err.message} ${err.url}`, secrets, 'the error');
  const { records } = await all(scanInBrowser([url, listing], { paths: [PRESENT] }));
  assert.deepEqual(records.map((r) => r.error?.reason), ['network', 'network']);
  assertClean(JSON.stringify(records), secrets, 'the records');
});

describe('presigned URLs', { skip: !S3S && 's3s-fs is not installed (scripts/setup.sh --s3)' }, () => {
  test('openTsFile: a presigned URL reads; one that fails (404, a signature refused: 403) is an error whose message and url hold no secret', async () => {
    const good = await presign('/bkt/d/a.tsfile', { token: TOKEN });
    const t = await openTsFile(good);
    assert.equal(t.size, 1627);
    await t.close();
    const failing = [
      [await presign('/bkt/d/none.tsfile', { token: TOKEN }), 404],
      [await presign('/bkt/d/a.tsfile', { keys: { ...KEYS, secretAccessKey: 'not-the-secret' } }), 403],
      [`${plain.origin}/v2/none.tsfile?${v2Query()}`, 404],
      [`${plain.origin}/v2/none.tsfile?x-amz-signature=${'ab'.repeat(32)}&X-AMZ-CREDENTIAL=AKIAMIXEDCASE001&X-Amz-Security-Token=${TOKEN}`, 404],
      [`${plain.origin.replace('//', '//tsuser:PASSWORD-VALUE-1@')}/v2/none.tsfile`, 404],
    ];
    for (const [url, status] of failing) {
      const err = await openTsFile(url).then(() => null, (e) => e);
      assert.deepEqual([err?.kind, err?.reason, err?.status], ['io', 'http_status', status], err?.message);
      assertClean(`${err.message} ${err.url} ${JSON.stringify(err)}`, secretsOf(url), url);
      assert.match(err.url, /REDACTED/);
      assert.ok(err.message.endsWith(`: ${err.url}`), err.message);
      // What is no secret stays, to tell the URL by: its path and the other parameters.
      const withoutUserinfo = (u) => u.split('?')[0].replace(/\/\/[^@/]*@/, '//');
      assert.equal(withoutUserinfo(err.url), withoutUserinfo(url));
      for (const kept of ['X-Amz-Date', 'X-Amz-Expires', 'Expires=1893456000', 'tsuser:']) if (url.includes(kept)) assert.ok(err.url.includes(kept), `${kept} kept: ${err.url}`);
    }
  });

  test('scanTsFiles (Node and the browsers\' scanner): records name each URL with its secrets REDACTED, their errors too; the good ones read', async () => {
    const urls = [
      await presign('/bkt/d/a.tsfile', { token: TOKEN }),
      await presign('/bkt/d/bad.tsfile'),
      await presign('/bkt/d/none.tsfile', { token: TOKEN }),
      `${plain.origin}/v2/a.tsfile?${v2Query()}`,
      `${plain.origin}/v2/none.tsfile?${v2Query()}`,
    ];
    const secrets = secretsOf(...urls);
    for (const [name, scan] of [['Node', scanTsFiles], ['browsers', scanInBrowser]]) {
      const { records, summary } = await all(scan(urls, { paths: [PRESENT, NOWHERE] }));
      assertClean(JSON.stringify(records), secrets, `${name}: the records`);
      assertClean(JSON.stringify(summary), secrets, `${name}: the summary`);
      assert.deepEqual(records.map((r) => [r.ok, r.error?.kind ?? null]), [[true, null], [false, 'bad_tail_magic'], [false, 'io'], [true, null], [false, 'io']], name);
      for (const [i, r] of records.entries()) {
        assert.equal(r.file.split('?')[0], urls[i].split('?')[0], `${name}: the record names its URL`);
        assert.match(r.file, i < 3 ? /X-Amz-Signature=REDACTED/ : /Signature=REDACTED/, name);
        assert.match(r.file, /X-Amz-Date=|Expires=1893456000/, `${name}: the other parameters stay`);
      }
      assert.equal(records[2].error.message.endsWith(records[2].file), true, records[2].error.message);
    }
  });

  test('bucket listings (the browsers\' scanner): a presigned listing refused, or cut short (presigned_truncated), is a record and an error without its secrets', async () => {
    const refused = await presign('/bkt?list-type=2&prefix=d/', { keys: { ...KEYS, secretAccessKey: 'not-the-secret' }, token: TOKEN });
    const truncated = await presign('/bkt?list-type=2&prefix=d/&max-keys=1');
    const secrets = secretsOf(refused, truncated);
    const { records } = await all(scanInBrowser([refused, truncated], { paths: [PRESENT] }));
    assertClean(JSON.stringify(records), secrets, 'the records');
    // (The listed object is read by its own URL, which no signature of the listing's covers: 403.)
    assert.deepEqual(records.map((r) => [r.error?.kind ?? null, r.error?.reason ?? null]), [['io', 'denied'], ['io', 'http_status'], ['io', 'presigned_truncated']]);
    assert.equal(records[1].file, `${s3s.origin}/bkt/d/a.tsfile`);
    assert.match(records[0].file, /\?list-type=2&prefix=d%2F&.*X-Amz-Signature=REDACTED/);
    const err = await (async () => {
      for await (const o of listingTsFiles(truncated)) void o;
    })().then(() => null, (e) => e);
    assert.equal(err?.reason, 'presigned_truncated');
    assertClean(`${err.message} ${err.url}`, secrets, 'the listing error');
  });

  test('CLI inspect, probe, verify (text and --json; a TsFile and a LevelDB table): the URL named with its secrets REDACTED; a failure too', async () => {
    const good = await presign('/bkt/d/a.tsfile', { token: TOKEN });
    const table = await presign('/bkt/d/t.ldb', { token: TOKEN });
    const missing = await presign('/bkt/d/none.tsfile', { token: TOKEN });
    const v2 = `${plain.origin}/v2/a.tsfile?${v2Query()}`;
    const secrets = secretsOf(good, table, missing, v2);
    // [arguments, exit code, whether the output names the file]; probe's is its verdict (1 absent), 4 an I/O error
    const runs = [
      [['inspect', good], 0, true], [['inspect', good, '--json'], 0, true], [['probe', good, PRESENT], 0, false], [['probe', good, PRESENT, '--json'], 0, true],
      [['verify', good], 0, false], [['verify', good, '--json'], 0, false], [['inspect', v2, '--json'], 0, true], [['probe', v2, NOWHERE, '--json'], 1, true],
      [['inspect', table], 0, true], [['inspect', table, '--json'], 0, true], [['probe', table, 'k', '--json'], 1, true],
      [['inspect', missing], 2, true], [['inspect', missing, '--json'], 2, true], [['probe', missing, PRESENT], 4, true], [['verify', missing, '--json'], 2, true],
    ];
    for (const [args, status, named] of runs) {
      const what = `${args[0]} ${args.slice(2).join(' ')}`;
      const r = await cli(args);
      assert.equal(r.status, status, `${what}: ${r.stderr}`);
      assertClean(r.stdout + r.stderr, secrets, what);
      if (named) assert.match(r.stdout + r.stderr, /Signature=REDACTED/, `${what} names the URL`);
    }
  });

  test('CLI scan: text, --json, --csv and their errors without secrets; --list and --print0 write each location as given', async () => {
    const good = await presign('/bkt/d/a.tsfile', { token: TOKEN });
    // Alike but for the signature (a wrong secret): one name once redacted, two records.
    const refused = await presign('/bkt/d/a.tsfile', { keys: { ...KEYS, secretAccessKey: 'not-the-secret' }, token: TOKEN });
    const missing = await presign('/bkt/d/none.tsfile');
    const v2 = `${plain.origin}/v2/a.tsfile?${v2Query()}`;
    const targets = [good, refused, missing, v2];
    const secrets = secretsOf(...targets);
    for (const format of [[], ['--json'], ['--csv']]) {
      const r = await cli(['scan', ...targets, '--path', PRESENT, '--path', NOWHERE, ...format]);
      assert.equal(r.status, 1, r.stderr);
      assertClean(r.stdout + r.stderr, secrets, `scan ${format.join(' ')}`);
      assert.equal((r.stdout.match(/X-Amz-Signature=REDACTED/g) ?? []).length >= 3, true, r.stdout);
    }
    const maybe = await cli(['scan', ...targets, '--path', PRESENT, '--list', 'maybe']);
    assert.equal(maybe.stdout, `${targets.join('\n')}\n`, 'every file may hold it (or could not be read): each as given');
    assertClean(maybe.stderr, secrets, 'the summary');
    const absent = await cli(['scan', ...targets, '--path', NOWHERE, '--list', 'absent', '--print0']);
    assert.equal(absent.stdout, `${good}\0${v2}\0`, 'the readable ones skip it, by their own signatures');
    // On a terminal a person reads the list: each location as the text listing shows it.
    if (HAS_SCRIPT) {
      const shown = await onTerminal(['scan', ...targets, '--path', PRESENT, '--list', 'maybe']);
      assertClean(shown, secrets, '--list on a terminal');
      assert.equal(shown.split('\n').filter((l) => /Signature=REDACTED/.test(l)).length, 4, shown);
    }
  });
});
