// `tsfile-bloom completions bash|zsh`: the completion script, written from the tables the CLI
// parses its arguments by (js/cli.js), so that a flag the parser takes is one the shell offers.
// One script for both shells: zsh runs bash's through its bashcompinit (which emulates
// `complete` and `compgen`, not `mapfile`: the script splits compgen's lines itself). Each verb
// is `{name, flags, operands}`: `flags` as the parser's ({type, short, values, file}),
// `operands` the words its arguments may be, or 'files'.

export const SHELLS = ['bash', 'zsh'];

/** A word the script holds unquoted (a verb, a flag, a value): checked, never escaped. */
function word(w) {
  if (!/^[A-Za-z0-9_.+-]+$/.test(w)) throw new Error(`completions: ${JSON.stringify(w)} is not a plain word`);
  return w;
}

/** The `case` arm that completes a flag's value (`prev` is the flag), or '' for a boolean. */
function valueArm(long, f) {
  if (f.type !== 'string') return '';
  const names = [`--${word(long)}`, ...(f.short ? [`-${word(f.short)}`] : [])].join('|');
  if (f.values) return `        ${names}) _tsfile_bloom_words ${f.values.map(word).join(' ')}; return ;;`;
  if (f.file) return `        ${names}) _tsfile_bloom_files; return ;;`;
  return `        ${names}) return ;;`; // a value nothing can guess: a header, a number
}

function verbArm(verb) {
  const flags = Object.entries(verb.flags);
  const names = flags.flatMap(([long, f]) => [...(f.short ? [`-${f.short}`] : []), `--${long}`]);
  const operands = verb.operands === 'files' ? '_tsfile_bloom_files' : `_tsfile_bloom_words ${verb.operands.map(word).join(' ')}`;
  return `    ${word(verb.name)})
      case $prev in
${flags.map(([long, f]) => valueArm(long, f)).filter(Boolean).join('\n')}
      esac
      if [[ $cur == -* ]]; then _tsfile_bloom_words ${names.join(' ')}; else ${operands}; fi ;;`;
}

/** The completion script of `shell` (one of SHELLS) for the CLI's `verbs`. */
export function completionScript(shell, verbs) {
  const names = verbs.map((v) => word(v.name));
  return `# ${shell} completion for tsfile-bloom (written by \`tsfile-bloom completions ${shell}\`)
${shell === 'zsh' ? 'autoload -U +X bashcompinit && bashcompinit\n' : ''}_tsfile_bloom_words() { local IFS=$'\\n'; COMPREPLY=($(compgen -W "$*" -- "$cur")); }
_tsfile_bloom_files() { local IFS=$'\\n'; compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); }
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
${verbs.map(verbArm).join('\n')}
  esac
}
complete -F _tsfile_bloom tsfile-bloom
`;
}
