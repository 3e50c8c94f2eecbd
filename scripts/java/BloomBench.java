/*
 * Throughput of Apache TsFile's Java BloomFilter (org.apache.tsfile.utils.BloomFilter), the
 * baseline `npm run bench` puts next to ours (scripts/bench-java.mjs runs it).
 *
 *   java -Dfile.encoding=UTF-8 -Dtsfile.commit=… -cp "$CLASSPATH:$TSFILE_CLASSES:$BENCH_CLASSES" \
 *     BloomBench <paths.txt> <capacity> <fpp> <present> <batch> [rounds] [warmup] [--batch-file=F] [--add-capacity=N]
 *
 *   paths.txt      one path per line, UTF-8 (Java hashes String.getBytes() in the default
 *                  charset, hence -Dfile.encoding=UTF-8 on JDK 17)
 *   capacity, fpp  BloomFilter.getEmptyBloomFilter(fpp, capacity) (Java clamps fpp to [0.01, 0.1])
 *   present        paths 0..present-1 are added before contains() is timed
 *   batch          contains() is timed over paths 0..batch-1 (cycling), or over the paths of
 *                  --batch-file (one per line) when given: a batch with absent paths in it
 *   rounds, warmup timed contains() rounds over the batch (median reported, default 15) after
 *                  untimed JIT warm-up rounds (default 10; C2 needs millions of calls to settle,
 *                  so scripts/bench-java.mjs asks for 300 × 10,000); add() runs max(3, rounds / 3)
 *                  rounds of 1,000,000 after 3 warm-up rounds
 *   --add-capacity add() is timed as 1,000,000 add()s (cycling through paths.txt) into a fresh
 *                  filter of this capacity (default: capacity)
 *
 * Prints one JSON line: {"containsNsPerPath", "addNsPerPath", "containsBestNsPerPath",
 * "addBestNsPerPath", "maybe", "bitCount", "k", "addBitCount", "batch", "rounds", "warmup", "addRounds",
 * "charset", "jdk", "tsfileCommit"}; "maybe" counts the batch paths contains() found (the
 * caller checks it against its own verdicts, and it keeps the JIT from dropping the loop).
 */

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.tsfile.utils.BloomFilter;

public class BloomBench {

  static final int ADDS = 1_000_000;

  static String[] lines(String file) throws Exception {
    List<String> out = new ArrayList<>();
    for (String l : Files.readAllLines(Paths.get(file), StandardCharsets.UTF_8)) {
      if (!l.isEmpty()) {
        out.add(l);
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no paths in " + file);
    }
    return out.toArray(new String[0]);
  }

  public static void main(String[] argv) throws Exception {
    List<String> args = new ArrayList<>();
    String batchFile = null;
    Integer addCapacity = null;
    for (String a : argv) {
      if (a.startsWith("--batch-file=")) {
        batchFile = a.substring("--batch-file=".length());
      } else if (a.startsWith("--add-capacity=")) {
        addCapacity = Integer.parseInt(a.substring("--add-capacity=".length()));
      } else {
        args.add(a);
      }
    }
    if (args.size() < 5) {
      System.err.println(
          "usage: BloomBench <paths.txt> <capacity> <fpp> <present> <batch> [rounds] [warmup] [--batch-file=F] [--add-capacity=N]");
      System.exit(2);
    }
    String[] paths = lines(args.get(0));
    int capacity = Integer.parseInt(args.get(1));
    double fpp = Double.parseDouble(args.get(2));
    int present = Integer.parseInt(args.get(3));
    int batch = Integer.parseInt(args.get(4));
    int rounds = args.size() > 5 ? Integer.parseInt(args.get(5)) : 15;
    int warmup = args.size() > 6 ? Integer.parseInt(args.get(6)) : 10;
    int addCap = addCapacity == null ? capacity : addCapacity;

    BloomFilter filter = BloomFilter.getEmptyBloomFilter(fpp, capacity);
    for (int i = 0; i < present; i++) {
      filter.add(paths[i % paths.length]);
    }
    String[] probe;
    if (batchFile != null) {
      probe = lines(batchFile);
    } else {
      probe = new String[batch];
      for (int i = 0; i < batch; i++) {
        probe[i] = paths[i % paths.length];
      }
    }

    // Each round is a call of its own (not a loop inside main): the JIT then compiles the
    // round methods normally after the warm-up calls, instead of only OSR-compiling main.
    double[] contains = new double[rounds];
    for (int r = -warmup; r < rounds; r++) {
      long t0 = System.nanoTime();
      maybe = containsRound(filter, probe);
      long t1 = System.nanoTime();
      if (r >= 0) {
        contains[r] = (double) (t1 - t0) / probe.length;
      }
    }

    // A round of add() is 1,000,000 calls: a third of the rounds, after 3 warm-up rounds.
    int addRounds = Math.max(3, rounds / 3);
    double[] add = new double[addRounds];
    long sink = 0;
    int addBits = 0;
    for (int r = -3; r < addRounds; r++) {
      BloomFilter f = BloomFilter.getEmptyBloomFilter(fpp, addCap);
      long t0 = System.nanoTime();
      addRound(f, paths);
      long t1 = System.nanoTime();
      if (r >= 0) {
        add[r] = (double) (t1 - t0) / ADDS;
      }
      sink += f.serialize().length; // keeps the filled filter alive
      addBits = f.getSize();
    }

    StringBuilder j = new StringBuilder("{");
    field(j, "containsNsPerPath", median(contains));
    field(j, "addNsPerPath", median(add));
    field(j, "containsBestNsPerPath", min(contains));
    field(j, "addBestNsPerPath", min(add));
    field(j, "maybe", maybe);
    field(j, "bitCount", filter.getSize());
    field(j, "k", filter.getHashFunctionSize());
    field(j, "addBitCount", addBits);
    field(j, "batch", probe.length);
    field(j, "rounds", rounds);
    field(j, "warmup", warmup);
    field(j, "addRounds", addRounds);
    field(j, "serializedBytes", sink / (addRounds + 3));
    field(j, "charset", Charset.defaultCharset().name());
    field(j, "jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    field(j, "tsfileCommit", System.getProperty("tsfile.commit", "unknown"));
    j.setLength(j.length() - 1);
    System.out.println(j.append('}'));
  }

  static long maybe = 0;

  static long containsRound(BloomFilter filter, String[] probe) {
    long found = 0;
    for (String p : probe) {
      if (filter.contains(p)) {
        found++;
      }
    }
    return found;
  }

  static void addRound(BloomFilter f, String[] paths) {
    for (int i = 0; i < ADDS; i++) {
      f.add(paths[i % paths.length]);
    }
  }

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  static double min(double[] v) {
    return Arrays.stream(v).min().getAsDouble();
  }

  /** A JSON field; strings escaped, doubles rounded to 0.001 ns. */
  static void field(StringBuilder j, String k, Object v) {
    j.append('"').append(k).append("\":");
    if (v instanceof String) {
      j.append('"');
      for (char c : ((String) v).toCharArray()) {
        if (c == '"' || c == '\\') {
          j.append('\\').append(c);
        } else if (c < 0x20) {
          j.append(String.format("\\u%04x", (int) c));
        } else {
          j.append(c);
        }
      }
      j.append('"');
    } else if (v instanceof Double) {
      j.append(Math.round((Double) v * 1000) / 1000.0);
    } else {
      j.append(v);
    }
    j.append(',');
  }
}
