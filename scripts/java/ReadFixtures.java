/*
 * Java's own verdicts on the fixtures GenFixtures wrote: opens each file with
 * TsFileSequenceReader, lists every series (time columns of aligned devices included), reads
 * the BloomFilter from TsFileMetadata and asks BloomFilter.contains() about every present path
 * and ~50 absent ones. Run it under the same -Dfile.encoding as the generator: the JVM then
 * hashes with the same default charset the writer did.
 *
 *   java -Dfile.encoding=X -cp … ReadFixtures set <label> <fixture dir> <written.json> <out.json>
 *   java                   -cp … ReadFixtures merge <manifest.json> <tsfile commit> <jdk version file> <set.json>…
 *
 * Java's reader decodes stored names with the JVM default charset (ReadWriteIOUtils
 * readVarIntString: new String(bytes, 0, len)), while the writer stores them in UTF-8. When the
 * names it returns differ from what the generator wrote, this program checks that every one is
 * exactly the default-charset mis-decoding of the UTF-8 name, and then takes the names from
 * the generator (the manifest says so in "names_from").
 */

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.ToNumberPolicy;
import com.google.gson.reflect.TypeToken;
import java.io.File;
import java.io.RandomAccessFile;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.apache.tsfile.enums.TSDataType;
import org.apache.tsfile.file.metadata.IDeviceID;
import org.apache.tsfile.file.metadata.TimeseriesMetadata;
import org.apache.tsfile.file.metadata.TsFileMetadata;
import org.apache.tsfile.read.TsFileSequenceReader;
import org.apache.tsfile.utils.BloomFilter;

public class ReadFixtures {

  static final Gson GSON =
      new GsonBuilder()
          .serializeNulls()
          .disableHtmlEscaping()
          .setObjectToNumberStrategy(ToNumberPolicy.LONG_OR_DOUBLE) // keep integers integers
          .create();

  /** One series as a (device segments, measurement, data type) key. */
  static String key(List<String> device, String measurement, String type) {
    return GSON.toJson(device) + "|" + measurement + "|" + type;
  }

  /** What Java's reader makes of a name stored in UTF-8 when the default charset differs. */
  static String misdecode(String s) {
    return s == null ? null : new String(s.getBytes(StandardCharsets.UTF_8), Charset.defaultCharset());
  }

  static List<String> misdecode(List<String> segs) {
    List<String> out = new ArrayList<>();
    for (String s : segs) {
      out.add(misdecode(s));
    }
    return out;
  }

  /** Java's sizing formula without the clamp, to show what the clamp changes. */
  static long[] unclamped(double e, int n) {
    double ln2 = Math.log(2);
    int size = (int) (-n * Math.log(e) / ln2 / ln2) + 1;
    int k = (int) (-Math.log(e) / ln2) + 1;
    return new long[] {Math.max(256, size), Math.min(8, k)};
  }

  /**
   * Absent candidates: variations of the file's own paths (ASCII and CJK suffixes), a device
   * path without its time-column dot, and generic paths. Any candidate that is a present path
   * is dropped. All characters are common CJK ones that GBK encodes.
   */
  static List<String> absentPaths(List<String> present, List<String> timeColumnPaths) {
    Set<String> presentSet = new LinkedHashSet<>(present);
    presentSet.addAll(timeColumnPaths);
    Set<String> out = new LinkedHashSet<>();
    int step = Math.max(1, present.size() / 10);
    for (int i = 0, n = 0; i < present.size() && n < 10; i += step, n++) {
      out.add(present.get(i) + "x");
      out.add(present.get(i) + "号");
      out.add(present.get(i).toUpperCase());
    }
    for (String t : timeColumnPaths) {
      if (out.size() >= 34) {
        break;
      }
      out.add(t.substring(0, t.length() - 1)); // the device itself, no trailing dot
    }
    for (int i = 0; out.size() < 42; i++) {
      out.add("root.nosuch.d" + i + ".s" + i);
    }
    String[] cjk = {"root.不存在.设备", "root.能源.北京.设备", "设备表.北京.二号站.", "风机.南区.", "root.工厂.车间."};
    String[] tails = {"气压", "温度", "湿度", "流量", "功率"};
    for (int i = 0; out.size() < 52; i++) {
      out.add(cjk[i % cjk.length] + i + "." + tails[(i / cjk.length) % tails.length]);
    }
    out.removeAll(presentSet);
    return new ArrayList<>(out);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> readOne(
      String label, File dir, Map<String, Object> written, boolean misdecoding) throws Exception {
    String fileName = (String) written.get("file");
    File f = new File(dir, fileName);
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("name", fileName.replace(".tsfile", ""));
    e.put("file", label + "/" + fileName);
    e.put("charset", Charset.defaultCharset().name());
    e.put("model", written.get("model"));
    e.put("file_size", f.length());
    double rate = ((Number) written.get("error_rate")).doubleValue();
    e.put("error_rate", rate);

    // What the generator wrote, keyed like the reader's view: by the strings themselves and by
    // their default-charset mis-decoding (equal to the strings under UTF-8 and for ASCII).
    Map<String, Map<String, Object>> exact = new LinkedHashMap<>();
    Map<String, Map<String, Object>> misdecoded = new LinkedHashMap<>();
    List<Map<String, Object>> entries = new ArrayList<>();
    for (Map<String, Object> s : (List<Map<String, Object>>) written.get("series")) {
      entries.add(s);
    }
    for (Map<String, Object> s : (List<Map<String, Object>>) written.get("time_columns")) {
      Map<String, Object> t = new LinkedHashMap<>(s);
      t.put("measurement", "");
      t.put("data_type", "VECTOR");
      entries.add(t);
    }
    for (Map<String, Object> s : entries) {
      List<String> ws = (List<String>) s.get("device");
      String wm = (String) s.get("measurement");
      String wt = (String) s.get("data_type");
      if (exact.put(key(ws, wm, wt), s) != null) {
        throw new IllegalStateException(fileName + ": written twice: " + key(ws, wm, wt));
      }
      if (misdecoding) {
        misdecoded.put(key(misdecode(ws), misdecode(wm), wt), s);
      }
    }

    try (TsFileSequenceReader reader = new TsFileSequenceReader(f.getPath())) {
      TsFileMetadata meta = reader.readFileMetadata();
      BloomFilter bf = meta.getBloomFilter();

      Map<IDeviceID, List<TimeseriesMetadata>> all =
          new TreeMap<>(reader.getAllTimeseriesMetadata(true));
      int chunkCount = 0;
      int seriesCount = 0;
      int timeColumnCount = 0;
      int misdecodedCount = 0;
      List<Map<String, Object>> devices = new ArrayList<>();
      List<String> presentPaths = new ArrayList<>();
      List<String> timePaths = new ArrayList<>();
      Set<String> seen = new LinkedHashSet<>();
      for (Map.Entry<IDeviceID, List<TimeseriesMetadata>> d : all.entrySet()) {
        List<String> readSegs = GenFixtures.segments(d.getKey());
        List<String> deviceSegs = null;
        List<Object> series = new ArrayList<>();
        Map<String, Object> dev = new LinkedHashMap<>();
        String timeColumn = null;
        for (TimeseriesMetadata t : d.getValue()) {
          chunkCount += t.getChunkMetadataList().size();
          String type = t.getTsDataType().name();
          String readName = t.getMeasurementId();
          // The written entry: the same strings, or (non-UTF-8 default charset) the
          // mis-decoding Java's reader produces from the stored UTF-8 bytes.
          String k = key(readSegs, readName, type);
          Map<String, Object> w = exact.get(k);
          if (w == null && misdecoding) {
            w = misdecoded.get(k);
            if (w != null) {
              misdecodedCount++;
            }
          }
          if (w == null || !seen.add(key((List<String>) w.get("device"), (String) w.get("measurement"), type))) {
            throw new IllegalStateException(
                fileName + ": Java's reader lists " + readSegs + " / " + readName + " (" + type
                    + ") which the generator did not write (or lists it twice)");
          }
          deviceSegs = (List<String>) w.get("device");
          String path = (String) w.get("path");
          if (t.getTsDataType() == TSDataType.VECTOR) {
            timeColumn = path;
            timePaths.add(path);
            timeColumnCount++;
          } else {
            series.add(new Object[] {w.get("measurement"), type, path, bf != null && bf.contains(path)});
            presentPaths.add(path);
            seriesCount++;
          }
        }
        dev.put("segments", deviceSegs);
        dev.put("aligned", timeColumn != null);
        if (timeColumn != null) {
          Map<String, Object> tc = new LinkedHashMap<>();
          tc.put("path", timeColumn);
          tc.put("java_contains", bf != null && bf.contains(timeColumn));
          String bare = timeColumn.substring(0, timeColumn.length() - 1);
          tc.put("java_contains_without_dot", bf != null && bf.contains(bare));
          dev.put("time_column", tc);
        }
        dev.put("series", series);
        devices.add(dev);
      }
      if (seen.size() != exact.size()) {
        throw new IllegalStateException(fileName + ": Java's reader lists " + seen.size()
            + " series/time columns, the generator wrote " + exact.size());
      }
      boolean namesFromGenerator = misdecodedCount > 0;
      e.put("names_from", namesFromGenerator
          ? "generator: Java's reader decoded the stored UTF-8 names in the default charset "
              + Charset.defaultCharset().name() + "; every name it returned equals that mis-decoding"
              + " of the generator's name (" + misdecodedCount + " differ), so the generator's names"
              + " are used"
          : "java-reader");

      Map<String, Object> bloom = new LinkedHashMap<>();
      bloom.put("present", bf != null);
      if (bf != null) {
        byte[] bytes = bf.serialize();
        bloom.put("byte_length", bytes.length);
        bloom.put("bit_count", bf.getSize());
        bloom.put("hash_function_count", bf.getHashFunctionSize());
        bloom.put("set_bits", BitSet.valueOf(bytes).cardinality());
      }
      e.put("bloom", bloom);
      e.put("series_count", seriesCount);
      e.put("time_column_count", timeColumnCount);
      e.put("chunk_metadata_count", chunkCount);

      // How the filter was sized: by chunk metadata (what TsFileIOWriter counts) or by series?
      Map<String, Object> sizing = new LinkedHashMap<>();
      BloomFilter byChunks = BloomFilter.getEmptyBloomFilter(rate, chunkCount);
      BloomFilter bySeries = BloomFilter.getEmptyBloomFilter(rate, seriesCount + timeColumnCount);
      long[] raw = unclamped(rate, chunkCount);
      sizing.put("bit_count_if_sized_by_chunk_metadata", byChunks.getSize());
      sizing.put("bit_count_if_sized_by_series", bySeries.getSize());
      sizing.put("bit_count_if_rate_not_clamped", raw[0]);
      sizing.put("k_if_rate_not_clamped", raw[1]);
      e.put("sizing", sizing);

      e.put("devices", devices);

      List<Object> absent = new ArrayList<>();
      for (String p : absentPaths(presentPaths, timePaths)) {
        absent.add(new Object[] {p, bf != null && bf.contains(p)});
      }
      e.put("absent", absent);

      // The raw TsFileMetadata of tiny files, for the byte-level facts (empty filter encoding).
      if (presentPaths.isEmpty()) {
        long pos = reader.getFileMetadataPos();
        int size = reader.getTsFileMetadataSize();
        byte[] raw2 = new byte[size];
        try (RandomAccessFile r = new RandomAccessFile(f, "r")) {
          r.seek(pos);
          r.readFully(raw2);
        }
        StringBuilder hex = new StringBuilder();
        for (byte b : raw2) {
          hex.append(String.format("%02x", b & 0xff));
        }
        e.put("tsfile_metadata_hex", hex.toString());
      }
    }
    return e;
  }

  @SuppressWarnings("unchecked")
  public static void main(String[] args) throws Exception {
    if (args.length >= 5 && args[0].equals("set")) {
      String label = args[1];
      File dir = new File(args[2]);
      Map<String, Object> written = GSON.fromJson(
          new String(Files.readAllBytes(new File(args[3]).toPath()), StandardCharsets.UTF_8),
          new TypeToken<Map<String, Object>>() {}.getType());
      if (!Objects.equals(written.get("default_charset"), Charset.defaultCharset().name())) {
        throw new IllegalStateException("written under " + written.get("default_charset")
            + " but read under " + Charset.defaultCharset().name());
      }
      boolean misdecoding = !Charset.defaultCharset().equals(StandardCharsets.UTF_8);
      List<Object> files = new ArrayList<>();
      for (Map<String, Object> w : (List<Map<String, Object>>) written.get("files")) {
        files.add(readOne(label, dir, w, misdecoding));
      }
      Map<String, Object> set = new LinkedHashMap<>();
      set.put("label", label);
      set.put("charset", Charset.defaultCharset().name());
      set.put("file_encoding", System.getProperty("file.encoding"));
      set.put("files", files);
      Files.write(new File(args[4]).toPath(), GSON.toJson(set).getBytes(StandardCharsets.UTF_8));
      System.out.println("ReadFixtures: " + files.size() + " files of set " + label + " ("
          + Charset.defaultCharset().name() + ")");
    } else if (args.length >= 5 && args[0].equals("merge")) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("generated_by", "scripts/java/gen-java-fixtures.sh (GenFixtures.java + ReadFixtures.java)");
      m.put("tsfile_repo", "https://github.com/apache/tsfile");
      m.put("tsfile_commit", args[2]);
      m.put("jdk", new String(Files.readAllBytes(new File(args[3]).toPath()), StandardCharsets.UTF_8).trim());
      List<Object> sets = new ArrayList<>();
      List<Map<String, Object>> files = new ArrayList<>();
      for (int i = 4; i < args.length; i++) {
        Map<String, Object> set = GSON.fromJson(
            new String(Files.readAllBytes(new File(args[i]).toPath()), StandardCharsets.UTF_8),
            new TypeToken<Map<String, Object>>() {}.getType());
        files.addAll((List<Map<String, Object>>) set.remove("files"));
        sets.add(set);
      }
      m.put("sets", sets);
      m.put("facts", facts(files));
      // Readable in a diff: the header pretty-printed, then one line per fixture file.
      String head = new GsonBuilder().setPrettyPrinting().serializeNulls().disableHtmlEscaping()
          .create().toJson(m);
      StringBuilder out = new StringBuilder(head.substring(0, head.lastIndexOf('}')).trim());
      out.append(",\n  \"files\": [\n");
      for (int i = 0; i < files.size(); i++) {
        out.append("    ").append(GSON.toJson(files.get(i))).append(i + 1 < files.size() ? ",\n" : "\n");
      }
      out.append("  ]\n}\n");
      Files.write(new File(args[1]).toPath(), out.toString().getBytes(StandardCharsets.UTF_8));
      System.out.println("ReadFixtures: manifest with " + files.size() + " files");
    } else {
      System.err.println("usage: ReadFixtures set <label> <dir> <written.json> <out.json>\n"
          + "       ReadFixtures merge <manifest.json> <commit> <jdk version file> <set.json>...");
      System.exit(2);
    }
  }

  static Map<String, Object> file(List<Map<String, Object>> files, String label, String name) {
    for (Map<String, Object> f : files) {
      if (f.get("file").equals(label + "/" + name + ".tsfile")) {
        return f;
      }
    }
    throw new IllegalStateException("no fixture " + label + "/" + name);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> bloom(Map<String, Object> f) {
    return (Map<String, Object>) f.get("bloom");
  }

  static Map<String, Object> fact(boolean holds, String claim, Object evidence) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("claim", claim);
    m.put("holds", holds);
    m.put("evidence", evidence);
    return m;
  }

  /**
   * The writer's behaviour, observed on the fixtures through Java's own reader and filter
   * (docs/java-writer.md explains them). Each entry says whether the claim held.
   */
  @SuppressWarnings("unchecked")
  static Map<String, Object> facts(List<Map<String, Object>> files) {
    Map<String, Object> facts = new LinkedHashMap<>();

    int tc = 0, tcIn = 0, tcBareIn = 0;
    for (Map<String, Object> f : files) {
      for (Map<String, Object> d : (List<Map<String, Object>>) f.get("devices")) {
        Map<String, Object> t = (Map<String, Object>) d.get("time_column");
        if (t != null) {
          tc++;
          tcIn += Boolean.TRUE.equals(t.get("java_contains")) ? 1 : 0;
          tcBareIn += Boolean.TRUE.equals(t.get("java_contains_without_dot")) ? 1 : 0;
        }
      }
    }
    facts.put("time_columns", fact(tc > 0 && tcIn == tc,
        "the time column of every aligned device (tree aligned and table devices) is in the filter as \"<device>.\"",
        tc + " time columns in all fixtures; Java contains(\"<device>.\") true for " + tcIn
            + "; contains(\"<device>\") without the dot true for " + tcBareIn));

    Map<String, Object> nt = file(files, "utf8", "table_null_tags");
    List<Object> ntDevices = new ArrayList<>();
    boolean trailingDropped = false, middleNull = false;
    for (Map<String, Object> d : (List<Map<String, Object>>) nt.get("devices")) {
      List<String> segs = (List<String>) d.get("segments");
      ntDevices.add(segs);
      trailingDropped |= segs.equals(java.util.Arrays.asList("设备表", "广州"))
          || segs.equals(java.util.Arrays.asList("设备表", "上海", "二号站"));
      middleNull |= segs.size() == 4 && segs.get(2) == null;
    }
    List<Object> ntPaths = new ArrayList<>();
    for (Map<String, Object> d : (List<Map<String, Object>>) nt.get("devices")) {
      ntPaths.add(((List<Object>) ((List<Object>) d.get("series")).get(0)).get(2));
    }
    facts.put("null_tags", fact(trailingDropped && middleNull,
        "trailing null tags are dropped from the DeviceID; a middle null stays null and is joined as the text null",
        java.util.Collections.singletonMap("devices_as_stored", ntDevices)));
    facts.put("null_tag_paths", fact(ntPaths.contains("设备表.北京.null.A2.温度")
            && ntPaths.contains("设备表.北京.null.A3.温度"),
        "a middle null tag is hashed as the text null, the same text the tag value \"null\" gives (A2: null tag, A3: tag \"null\")",
        ntPaths));

    Map<String, Object> q = file(files, "utf8", "tree_quoted_unicode");
    List<Object> qPaths = new ArrayList<>();
    for (Map<String, Object> d : (List<Map<String, Object>>) q.get("devices")) {
      for (Object s : (List<Object>) d.get("series")) {
        qPaths.add(((List<Object>) s).get(2));
      }
    }
    facts.put("back_quotes", fact(qPaths.contains("root.sg.`a.b`.`温度`")
            && qPaths.contains("root.sg.`设备.一号`.传感器.电流"),
        "back-quoted segments and measurements keep their quotes in the hashed path", qPaths));

    Map<String, Object> mc = file(files, "utf8", "multi_chunk");
    Map<String, Object> mcs = (Map<String, Object>) mc.get("sizing");
    facts.put("sized_by_chunk_metadata", fact(
        bloom(mc).get("bit_count").equals(mcs.get("bit_count_if_sized_by_chunk_metadata"))
            && !bloom(mc).get("bit_count").equals(mcs.get("bit_count_if_sized_by_series")),
        "the filter is sized by the number of chunk metadata entries, not of series",
        "multi_chunk: " + mc.get("series_count") + " series + " + mc.get("time_column_count")
            + " time column, " + mc.get("chunk_metadata_count") + " chunk metadata; bit_count "
            + bloom(mc).get("bit_count") + " (by chunk metadata: "
            + mcs.get("bit_count_if_sized_by_chunk_metadata") + ", by series: "
            + mcs.get("bit_count_if_sized_by_series") + ")"));

    Map<String, Object> lo = file(files, "utf8", "error_rate_0.001");
    Map<String, Object> e01 = file(files, "utf8", "error_rate_0.01");
    Map<String, Object> hi = file(files, "utf8", "error_rate_0.5");
    Map<String, Object> e1 = file(files, "utf8", "error_rate_0.1");
    Map<String, Object> clamp = new LinkedHashMap<>();
    for (Map<String, Object> f : java.util.Arrays.asList(lo, e01, e1, hi)) {
      Map<String, Object> s = (Map<String, Object>) f.get("sizing");
      clamp.put(String.valueOf(f.get("error_rate")), "m=" + bloom(f).get("bit_count") + " k="
          + bloom(f).get("hash_function_count") + " (unclamped formula: m="
          + s.get("bit_count_if_rate_not_clamped") + " k=" + s.get("k_if_rate_not_clamped") + ")");
    }
    boolean clamped = bloom(lo).get("bit_count").equals(bloom(e01).get("bit_count"))
        && bloom(lo).get("hash_function_count").equals(bloom(e01).get("hash_function_count"))
        && bloom(hi).get("bit_count").equals(bloom(e1).get("bit_count"))
        && bloom(hi).get("hash_function_count").equals(bloom(e1).get("hash_function_count"));
    facts.put("error_rate_clamped", fact(clamped,
        "the configured error rate is clamped to [0.01, 0.1] (60 series, same names)", clamp));

    Map<String, Object> em = file(files, "utf8", "empty");
    String hex = (String) em.get("tsfile_metadata_hex");
    // tables 00, schemas 00, meta_offset i64, then the filter field, then the properties (zigzag count)
    String bloomField = hex.substring(20, 22);
    facts.put("empty_file_filter", fact(Boolean.FALSE.equals(bloom(em).get("present"))
            && bloomField.equals("00") && hex.startsWith("0000", 0) && hex.substring(22, 24).equals("06"),
        "an empty file stores the filter as byte_length 0 and nothing else (no bit_count, no k)",
        "TsFileMetadata " + hex + ": 00 tables, 00 schemas, meta_offset, filter " + bloomField
            + ", then properties (06 = zigzag 3)"));

    List<Object> differ = new ArrayList<>();
    boolean allTrue = true;
    for (Map<String, Object> f : files) {
      for (Map<String, Object> d : (List<Map<String, Object>>) f.get("devices")) {
        for (Object s : (List<Object>) d.get("series")) {
          allTrue &= Boolean.TRUE.equals(((List<Object>) s).get(3));
        }
      }
      if (((String) f.get("file")).startsWith("gbk/") && Boolean.TRUE.equals(bloom(f).get("present"))) {
        Map<String, Object> u = file(files, "utf8", (String) f.get("name"));
        if (!bloom(u).get("set_bits").equals(bloom(f).get("set_bits"))) {
          differ.add(f.get("name") + ": set bits UTF-8 " + bloom(u).get("set_bits") + ", GBK "
              + bloom(f).get("set_bits"));
        }
      }
    }
    facts.put("default_charset", fact(allTrue && !differ.isEmpty(),
        "the writer hashes String.getBytes() in the JVM default charset: the same names give other filters under GBK, and Java (same charset) finds every series",
        differ));
    return facts;
  }
}
