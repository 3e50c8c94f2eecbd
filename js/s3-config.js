// Where Node finds S3 settings when the caller gives none, as the AWS CLI and SDKs do: the
// AWS_* environment variables first (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN,
// AWS_REGION / AWS_DEFAULT_REGION, AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL), then the profile
// (AWS_PROFILE, else "default") in the shared files (AWS_SHARED_CREDENTIALS_FILE, else
// ~/.aws/credentials; AWS_CONFIG_FILE, else ~/.aws/config: region, endpoint_url).
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** An INI file's sections: `{section: {key: value}}` (missing or unreadable: none). */
function readIni(path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  const out = {};
  let section = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/^\s+|\s+$/g, '');
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const head = /^\[([^\]]+)\]$/.exec(line);
    if (head) {
      section = head[1].trim();
      out[section] ??= {};
    } else if (section) {
      const eq = line.indexOf('=');
      if (eq > 0) out[section][line.slice(0, eq).trim().toLowerCase()] = line.slice(eq + 1).trim();
    }
  }
  return out;
}

/** The S3 configuration of this process's environment: `{accessKeyId, …, endpoint, profile}`. */
export function s3ConfigFromEnvironment(env = process.env) {
  const home = env.HOME || homedir();
  const profile = env.AWS_PROFILE || 'default';
  const credentials = readIni(env.AWS_SHARED_CREDENTIALS_FILE || join(home, '.aws', 'credentials'))[profile] ?? {};
  const config = readIni(env.AWS_CONFIG_FILE || join(home, '.aws', 'config'))[profile === 'default' ? 'default' : `profile ${profile}`] ?? {};
  // The environment's keys are a pair: both, or the profile's.
  const fromEnv = env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY;
  const out = {
    accessKeyId: fromEnv ? env.AWS_ACCESS_KEY_ID : (credentials.aws_access_key_id ?? config.aws_access_key_id),
    secretAccessKey: fromEnv ? env.AWS_SECRET_ACCESS_KEY : (credentials.aws_secret_access_key ?? config.aws_secret_access_key),
    sessionToken: fromEnv ? env.AWS_SESSION_TOKEN : (credentials.aws_session_token ?? config.aws_session_token),
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || config.region,
    endpoint: env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || config.endpoint_url,
    profile,
  };
  // Where each setting came from, for an error about it (js/s3.js names a bad one, never its
  // value): not enumerable, so the settings compare and spread as before.
  const inProfile = (name) => `${name} (profile ${profile})`;
  const sources = {
    accessKeyId: fromEnv ? 'AWS_ACCESS_KEY_ID' : inProfile('aws_access_key_id'),
    secretAccessKey: fromEnv ? 'AWS_SECRET_ACCESS_KEY' : inProfile('aws_secret_access_key'),
    sessionToken: fromEnv ? 'AWS_SESSION_TOKEN' : inProfile('aws_session_token'),
    region: env.AWS_REGION ? 'AWS_REGION' : env.AWS_DEFAULT_REGION ? 'AWS_DEFAULT_REGION' : inProfile('region'),
    endpoint: env.AWS_ENDPOINT_URL_S3 ? 'AWS_ENDPOINT_URL_S3' : env.AWS_ENDPOINT_URL ? 'AWS_ENDPOINT_URL' : inProfile('endpoint_url'),
  };
  return Object.defineProperty(out, 'sources', { value: sources, enumerable: false });
}
