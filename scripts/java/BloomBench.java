/*
 * Throughput of Apache TsFile's Java BloomFilter (org.apache.tsfile.utils.BloomFilter), for
 * comparison with our Rust/wasm filter.
 *
 * Usage (after scripts/java/build-tsfile-java.sh):
 *   CP="$(cat .tools/java/classpath.txt):.tools/java/tsfile-classes"
 *   javac -d .tools/java/bench-classes -cp "$CP" scripts/java/BloomBench.java
 *   java -Dfile.encoding=UTF-8 -Dtsfile.commit="$(cat .tools/java/tsfile-commit.txt)" \
 *        -cp "$CP:.tools/java/bench-classes" BloomBench <paths.txt> <capacity> <fpp> <present> <batch> [rounds] [warmup]
 *
 *   paths.txt  one path per line, UTF-8 (read as Java Strings; the filter hashes
 *              String.getBytes() in the JVM default charset, hence -Dfile.encoding)
 *   capacity   n for BloomFilter.getEmptyBloomFilter(fpp, n)
 *   fpp        the error rate (Java clamps it to [0.01, 0.1])
 *   present    paths 0..present-1 are added before timing contains()
 *   batch      contains() is timed over paths 0..batch-1 (cycling if the file is shorter)
 *   rounds     timed rounds, default 15 (the median is reported; the best too)
 *   warmup     untimed rounds first so the JIT has compiled the hot paths, default 10
 *
 * add() is timed separately: 1,000,000 add()s (cycling through the file) into a fresh
 * filter with the same capacity and fpp, per round.
 *
 * Prints one JSON line:
 *   {"containsNsPerPath":…, "addNsPerPath":…, "containsBestNsPerPath":…, "addBestNsPerPath":…,
 *    "maybe":…, "bitCount":…, "k":…, "paths":…, "capacity":…, "fpp":…, "present":…, "batch":…,
 *    "rounds":…, "warmup":…, "charset":"…", "jdk":"…", "tsfileCommit":"…"}
 * "maybe" is how many of the batch contains() found (also keeps the JIT from dropping the loop).
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

  public static void main(String[] args) throws Exception {
    if (args.length < 5) {
      System.err.println(
          "usage: BloomBench <paths.txt> <capacity> <fpp> <present> <batch> [rounds] [warmup]");
      System.exit(2);
    }
    List<String> lines = new ArrayList<>();
    for (String l : Files.readAllLines(Paths.get(args[0]), StandardCharsets.UTF_8)) {
      if (!l.isEmpty()) {
        lines.add(l);
      }
    }
    if (lines.isEmpty()) {
      throw new IllegalArgumentException("no paths in " + args[0]);
    }
    String[] paths = lines.toArray(new String[0]);
    int capacity = Integer.parseInt(args[1]);
    double fpp = Double.parseDouble(args[2]);
    int present = Integer.parseInt(args[3]);
    int batch = Integer.parseInt(args[4]);
    int rounds = args.length > 5 ? Integer.parseInt(args[5]) : 15;
    int warmup = args.length > 6 ? Integer.parseInt(args[6]) : 10;
    if (capacity < 0 || present < 0 || batch <= 0 || rounds <= 0 || warmup < 0) {
      throw new IllegalArgumentException("capacity/present must be >= 0, batch/rounds > 0");
    }

    BloomFilter filter = BloomFilter.getEmptyBloomFilter(fpp, capacity);
    for (int i = 0; i < present; i++) {
      filter.add(paths[i % paths.length]);
    }
    String[] probe = new String[batch];
    for (int i = 0; i < batch; i++) {
      probe[i] = paths[i % paths.length];
    }

    long maybe = 0;
    double[] contains = new double[rounds];
    for (int r = -warmup; r < rounds; r++) {
      long found = 0;
      long t0 = System.nanoTime();
      for (String p : probe) {
        if (filter.contains(p)) {
          found++;
        }
      }
      long t1 = System.nanoTime();
      if (r >= 0) {
        contains[r] = (double) (t1 - t0) / batch;
      }
      maybe = found;
    }

    double[] add = new double[rounds];
    long sink = 0;
    for (int r = -warmup; r < rounds; r++) {
      BloomFilter f = BloomFilter.getEmptyBloomFilter(fpp, capacity);
      long t0 = System.nanoTime();
      for (int i = 0; i < ADDS; i++) {
        f.add(paths[i % paths.length]);
      }
      long t1 = System.nanoTime();
      if (r >= 0) {
        add[r] = (double) (t1 - t0) / ADDS;
      }
      sink += f.serialize().length; // keeps the filled filter alive
    }

    StringBuilder j = new StringBuilder("{");
    field(j, "containsNsPerPath", median(contains));
    field(j, "addNsPerPath", median(add));
    field(j, "containsBestNsPerPath", min(contains));
    field(j, "addBestNsPerPath", min(add));
    field(j, "maybe", maybe);
    field(j, "bitCount", filter.getSize());
    field(j, "k", filter.getHashFunctionSize());
    field(j, "paths", paths.length);
    field(j, "capacity", capacity);
    field(j, "fpp", fpp);
    field(j, "present", present);
    field(j, "batch", batch);
    field(j, "rounds", rounds);
    field(j, "warmup", warmup);
    field(j, "serializedBytes", sink / (rounds + warmup));
    field(j, "charset", Charset.defaultCharset().name());
    field(j, "jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    field(j, "tsfileCommit", System.getProperty("tsfile.commit", "unknown"));
    j.setLength(j.length() - 1);
    System.out.println(j.append('}'));
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
      // ns rounded to 0.001; Double.toString is valid JSON (incl. 1.0E-4) for finite values
      double d = (Double) v;
      j.append(Math.abs(d) >= 1 ? Double.toString(Math.round(d * 1000) / 1000.0) : Double.toString(d));
    } else {
      j.append(v);
    }
    j.append(',');
  }
}
