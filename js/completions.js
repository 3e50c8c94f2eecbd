// `tsfile-bloom completions bash|zsh|fish`: a shell's completion script, written from the
// tables the CLI parses its arguments by (js/cli.js VERBS), so that a flag the parser takes is
// one the shell offers. Each verb is `{name, summary, flags, operands}`: `flags` as the parser's
// ({type: 'boolean' | 'string' | 'optional', short, multiple, values, file}), `operands` the
// words its arguments may be, or 'files'.

export const SHELLS = ['bash', 'zsh', 'fish'];

const COMMAND = 'tsfile-bloom';

/** A word the scripts hold unquoted (a verb, a flag, a value): checked, never escaped. */
function word(w) {
  if (!/^[A-Za-z0-9_.+-]+$/.test(w)) throw new Error(`completions: ${JSON.stringify(w)} is not a plain word`);
  return w;
}

/** `text` in single quotes, for every shell here (a quote as '\''; fish reads \' inside). */
const quoted = (text, shell) => `'${shell === 'fish' ? text.replace(/[\\']/g, '\\$&') : text.replace(/'/g, `'\\''`)}'`;

/** A verb's flags: `[{long, short, kind, values, file, multiple}]`, names checked. */
const flagsOf = (verb) =>
  Object.entries(verb.flags).map(([long, f]) => ({
    long: word(long),
    short: f.short && word(f.short),
    kind: f.type,
    values: f.values?.map(word) ?? null,
    file: f.file === true,
    multiple: f.multiple === true,
  }));

// ---- bash -------------------------------------------------------------------------------

/** The `case` arm that completes a flag's value (`prev` is the flag), or '' for a boolean. */
function bashValue(f) {
  if (f.kind !== 'string') return '';
  const names = [`--${f.long}`, ...(f.short ? [`-${f.short}`] : [])].join('|');
  if (f.values) return `        ${names}) _tsfile_bloom_words ${f.values.join(' ')}; return ;;`;
  if (f.file) return `        ${names}) _tsfile_bloom_files; return ;;`;
  return `        ${names}) return ;;`; // a value nothing can guess: a header, a number
}

function bashVerb(verb) {
  const flags = flagsOf(verb);
  const names = flags.flatMap((f) => [...(f.short ? [`-${f.short}`] : []), `--${f.long}`]);
  const operands = verb.operands === 'files' ? '_tsfile_bloom_files' : `_tsfile_bloom_words ${verb.operands.map(word).join(' ')}`;
  return `    ${word(verb.name)})
      case $prev in
${flags.map(bashValue).filter(Boolean).join('\n')}
      esac
      if [[ $cur == -* ]]; then _tsfile_bloom_words ${names.join(' ')}; else ${operands}; fi ;;`;
}

function bash(verbs) {
  const names = verbs.map((v) => word(v.name));
  return `# bash completion for ${COMMAND} (written by \`${COMMAND} completions bash\`)
_tsfile_bloom_words() { mapfile -t COMPREPLY < <(compgen -W "$*" -- "$cur"); }
_tsfile_bloom_files() { compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur"); }
_tsfile_bloom() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} verb= i
  COMPREPLY=()
  # --flag=VALUE: bash splits it at the =, as COMP_WORDBREAKS says
  if [[ $cur == = ]]; then cur=; fi
  if [[ $prev == = ]]; then prev=\${COMP_WORDS[COMP_CWORD-2]}; fi
  for ((i = 1; i < COMP_CWORD; i++)); do
    case \${COMP_WORDS[i]} in ${names.join('|')}) verb=\${COMP_WORDS[i]}; break ;; esac
  done
  case $verb in
    '') _tsfile_bloom_words ${names.join(' ')} -h --help -v --version ;;
${verbs.map(bashVerb).join('\n')}
  esac
}
complete -F _tsfile_bloom ${COMMAND}
`;
}

// ---- zsh --------------------------------------------------------------------------------

/** One flag as an `_arguments` spec: repeatable with *, its value's words or files. */
function zshFlag(f) {
  const value = f.values ? `:${f.long}:(${f.values.join(' ')})` : f.file ? `:${f.long}:_files` : f.kind === 'string' ? `:${f.long}: ` : f.kind === 'optional' ? '::bytes: ' : '';
  const long = `--${f.long}${f.kind === 'string' ? '=' : f.kind === 'optional' ? '=-' : ''}`;
  const repeat = f.multiple ? '*' : '';
  if (!f.short) return `'${repeat}${long}${value}'`;
  const exclusive = f.multiple ? '' : `(-${f.short} --${f.long})`;
  return `'${exclusive}${repeat}'{-${f.short}${f.kind === 'string' ? '+' : ''},${long}}'${value}'`;
}

function zshVerb(verb) {
  const operands = verb.operands === 'files' ? `'*:file:_files'` : verb.operands.length ? `'1:${word(verb.name)}:(${verb.operands.map(word).join(' ')})'` : '';
  return `    ${word(verb.name)}) _arguments -s ${[...flagsOf(verb).map(zshFlag), operands].filter(Boolean).join(' ')} ;;`;
}

function zsh(verbs) {
  const described = verbs.map((v) => quoted(`${word(v.name)}:${v.summary}`, 'zsh'));
  return `#compdef ${COMMAND}
# zsh completion for ${COMMAND} (written by \`${COMMAND} completions zsh\`): save it as _${COMMAND}
# in a directory of $fpath, or source it after compinit
_tsfile_bloom() {
  local -a verbs
  verbs=(${described.join(' ')})
  if (( CURRENT == 2 )); then
    _describe -t verbs '${COMMAND} verb' verbs
    return
  fi
  local verb=\${words[2]}
  shift words
  (( CURRENT-- ))
  case $verb in
${verbs.map(zshVerb).join('\n')}
  esac
}
if [[ $funcstack[1] == _tsfile_bloom ]]; then _tsfile_bloom "$@"; else compdef _tsfile_bloom ${COMMAND}; fi
`;
}

// ---- fish -------------------------------------------------------------------------------

function fishVerb(verb) {
  const when = `-n '__fish_seen_subcommand_from ${word(verb.name)}'`;
  const lines = [`complete -c ${COMMAND} -n __fish_use_subcommand -a ${word(verb.name)} -d ${quoted(verb.summary, 'fish')}`];
  for (const f of flagsOf(verb)) {
    const names = `${f.short ? `-s ${f.short} ` : ''}-l ${f.long}`;
    const value = f.values ? ` -x -a ${quoted(f.values.join(' '), 'fish')}` : f.file ? ' -r -F' : f.kind === 'string' ? ' -x' : '';
    lines.push(`complete -c ${COMMAND} ${when} ${names}${value}`);
  }
  if (verb.operands === 'files') lines.push(`complete -c ${COMMAND} ${when} -F`);
  else if (verb.operands.length) lines.push(`complete -c ${COMMAND} ${when} -x -a ${quoted(verb.operands.map(word).join(' '), 'fish')}`);
  return lines.join('\n');
}

function fish(verbs) {
  return `# fish completion for ${COMMAND} (written by \`${COMMAND} completions fish\`)
complete -c ${COMMAND} -f
complete -c ${COMMAND} -n __fish_use_subcommand -s h -l help
complete -c ${COMMAND} -n __fish_use_subcommand -s v -l version
${verbs.map(fishVerb).join('\n')}
`;
}

/** The completion script of `shell` (one of SHELLS) for the CLI's `verbs`. */
export function completionScript(shell, verbs) {
  return { bash, zsh, fish }[shell](verbs);
}
