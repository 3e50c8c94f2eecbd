/*
 * Writes small TsFiles with Apache TsFile's own Java writer (built by build-tsfile-java.sh),
 * the fixtures of tests/java_fixtures.rs.
 *
 *   java -Dfile.encoding=UTF-8|GBK -cp "$(cat .tools/java/classpath.txt):.tools/java/tsfile-classes:<dir of this class>" \
 *        GenFixtures <output dir> <written.json>
 *
 * Besides the .tsfile files it writes written.json (a sidecar, not a fixture): for every file what was
 * written (device segments, measurement, data type, aligned or not, number of chunks) and the
 * path string the writer hashes, built the way TsFileIOWriter builds it
 * (new Path(IDeviceID, measurement, false).getFullPath()). ReadFixtures falls back to these
 * names where the JVM's default charset makes Java's reader decode stored names wrongly.
 *
 * The JVM default charset matters: Murmur128Hash hashes String.getBytes(), so under
 * -Dfile.encoding=GBK the filter holds GBK-hashed paths while the names are stored in UTF-8.
 * All non-ASCII names below are common CJK characters that GBK encodes.
 */

import com.google.gson.GsonBuilder;
import java.io.File;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.tsfile.common.conf.TSFileConfig;
import org.apache.tsfile.common.conf.TSFileDescriptor;
import org.apache.tsfile.enums.TSDataType;
import org.apache.tsfile.file.metadata.IDeviceID;
import org.apache.tsfile.file.metadata.TableSchema;
import org.apache.tsfile.read.common.Path;
import org.apache.tsfile.utils.Binary;
import org.apache.tsfile.write.TsFileWriter;
import org.apache.tsfile.write.record.TSRecord;
import org.apache.tsfile.write.record.Tablet;
import org.apache.tsfile.write.record.Tablet.ColumnType;
import org.apache.tsfile.write.record.datapoint.DataPoint;
import org.apache.tsfile.write.schema.IMeasurementSchema;
import org.apache.tsfile.write.schema.MeasurementSchema;

public class GenFixtures {

  static final double DEFAULT_ERROR_RATE = 0.05;

  /** What one fixture file contains, as the generator wrote it. */
  static final class Written {
    final String file;
    final String model;
    double errorRate = DEFAULT_ERROR_RATE;
    int chunksPerSeries = 1;
    final List<Map<String, Object>> series = new ArrayList<>();
    final List<Map<String, Object>> timeColumns = new ArrayList<>();
    final List<String> notes = new ArrayList<>();

    Written(String file, String model) {
      this.file = file;
      this.model = model;
    }

    void series(IDeviceID device, String measurement, TSDataType type, boolean aligned) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("device", segments(device));
      s.put("measurement", measurement);
      s.put("data_type", type.name());
      s.put("aligned", aligned);
      s.put("path", new Path(device, measurement, false).getFullPath());
      series.add(s);
    }

    void timeColumn(IDeviceID device) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("device", segments(device));
      s.put("path", new Path(device, "", false).getFullPath());
      timeColumns.add(s);
    }

    Map<String, Object> json() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("file", file);
      m.put("model", model);
      m.put("error_rate", errorRate);
      m.put("chunks_per_series", chunksPerSeries);
      m.put("series", series);
      m.put("time_columns", timeColumns);
      m.put("notes", notes);
      return m;
    }
  }

  static List<String> segments(IDeviceID d) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < d.segmentNum(); i++) {
      Object seg = d.segment(i);
      out.add(seg == null ? null : seg.toString());
    }
    return out;
  }

  static IDeviceID tree(String path) {
    return IDeviceID.Factory.DEFAULT_FACTORY.create(path);
  }

  static MeasurementSchema ms(String name, TSDataType type) {
    return new MeasurementSchema(name, type);
  }

  static Object sampleValue(TSDataType type, int i) {
    switch (type) {
      case BOOLEAN:
        return i % 2 == 0;
      case INT32:
        return i;
      case INT64:
        return (long) i * 1000L;
      case FLOAT:
        return i + 0.5f;
      case DOUBLE:
        return i + 0.25;
      case TEXT:
      case STRING:
        return new Binary(("值" + i).getBytes(StandardCharsets.UTF_8));
      default:
        throw new IllegalArgumentException("no sample for " + type);
    }
  }

  static DataPoint point(IMeasurementSchema s, int i) {
    Object v = sampleValue(s.getType(), i);
    return DataPoint.getDataPoint(
        s.getType(), s.getMeasurementId(), v instanceof Binary ? ((Binary) v).toString() : v.toString());
  }

  /** Tree model, one device: non-aligned or aligned, `points` rows starting at time t0. */
  static void writeTreeDevice(
      TsFileWriter w, Written out, String devicePath, List<MeasurementSchema> schemas,
      boolean aligned, int points, long t0, boolean register)
      throws Exception {
    IDeviceID device = tree(devicePath);
    if (register) {
      if (aligned) {
        w.registerAlignedTimeseries(device, new ArrayList<IMeasurementSchema>(schemas));
        out.timeColumn(device);
      } else {
        for (MeasurementSchema s : schemas) {
          w.registerTimeseries(device, s);
        }
      }
      for (MeasurementSchema s : schemas) {
        out.series(device, s.getMeasurementId(), s.getType(), aligned);
      }
    }
    for (int i = 0; i < points; i++) {
      TSRecord r = new TSRecord(t0 + i, device);
      for (MeasurementSchema s : schemas) {
        r.addTuple(point(s, i));
      }
      if (aligned) {
        w.writeAligned(r);
      } else {
        w.write(r);
      }
    }
  }

  static TsFileWriter open(File dir, Written out) throws IOException {
    File f = new File(dir, out.file);
    Files.deleteIfExists(f.toPath());
    TSFileDescriptor.getInstance().getConfig().setBloomFilterErrorRate(out.errorRate);
    return new TsFileWriter(f);
  }

  // ---- the fixtures ----

  static Written treeNonAligned(File dir) throws Exception {
    Written out = new Written("tree_nonaligned.tsfile", "tree");
    try (TsFileWriter w = open(dir, out)) {
      writeTreeDevice(w, out, "root.sg.d1",
          Arrays.asList(ms("s1", TSDataType.INT32), ms("s2", TSDataType.DOUBLE)), false, 3, 1, true);
      writeTreeDevice(w, out, "root.能源.北京.设备1",
          Arrays.asList(ms("温度", TSDataType.FLOAT), ms("湿度", TSDataType.DOUBLE),
              ms("状态", TSDataType.BOOLEAN)), false, 3, 1, true);
      writeTreeDevice(w, out, "root.工厂.车间.风机.一号",
          Arrays.asList(ms("功率", TSDataType.INT64), ms("转速", TSDataType.INT32),
              ms("备注", TSDataType.TEXT)), false, 3, 1, true);
    }
    return out;
  }

  static Written treeAligned(File dir) throws Exception {
    Written out = new Written("tree_aligned.tsfile", "tree");
    try (TsFileWriter w = open(dir, out)) {
      writeTreeDevice(w, out, "root.sg.ad1",
          Arrays.asList(ms("s1", TSDataType.INT32), ms("s2", TSDataType.FLOAT)), true, 3, 1, true);
      writeTreeDevice(w, out, "root.能源.上海.设备2",
          Arrays.asList(ms("电压", TSDataType.DOUBLE), ms("电流", TSDataType.DOUBLE)), true, 3, 1, true);
      writeTreeDevice(w, out, "root.sg.普通设备",
          Arrays.asList(ms("读数", TSDataType.INT32)), false, 3, 1, true);
    }
    out.notes.add("two aligned devices (time column + values) and one non-aligned device");
    return out;
  }

  /** One table; rows given as tag values (null = null tag) — each row its own device. */
  static void writeTable(TsFileWriter w, Written out, String table, String[] tags,
      List<MeasurementSchema> fields, String[][] tagRows, boolean register) throws Exception {
    List<IMeasurementSchema> cols = new ArrayList<>();
    List<ColumnType> types = new ArrayList<>();
    for (String t : tags) {
      cols.add(ms(t, TSDataType.STRING));
      types.add(ColumnType.ID);
    }
    for (MeasurementSchema f : fields) {
      cols.add(f);
      types.add(ColumnType.MEASUREMENT);
    }
    if (register) {
      w.registerTableSchema(new TableSchema(table, cols, types));
    }
    Tablet tablet = new Tablet(table, cols, types, tagRows.length * 2);
    int row = 0;
    for (String[] tagRow : tagRows) {
      for (int p = 0; p < 2; p++, row++) {
        tablet.addTimestamp(row, 1 + p);
        for (int t = 0; t < tags.length; t++) {
          tablet.addValue(tags[t], row, tagRow[t]);
        }
        for (MeasurementSchema f : fields) {
          Object v = sampleValue(f.getType(), row);
          tablet.addValue(f.getMeasurementId(), row, v);
        }
      }
    }
    tablet.rowSize = row;
    if (register) {
      // the device as the writer derives it (Tablet.getDeviceID: trailing null tags dropped)
      for (int r = 0; r < row; r += 2) {
        IDeviceID device = tablet.getDeviceID(r);
        out.timeColumn(device);
        for (MeasurementSchema f : fields) {
          out.series(device, f.getMeasurementId(), f.getType(), true);
        }
      }
    }
    w.writeTable(tablet);
  }

  static Written tableNullTags(File dir) throws Exception {
    Written out = new Written("table_null_tags.tsfile", "table");
    try (TsFileWriter w = open(dir, out)) {
      writeTable(w, out, "设备表", new String[] {"地区", "站点", "编号"},
          Arrays.asList(ms("温度", TSDataType.FLOAT), ms("状态", TSDataType.BOOLEAN)),
          new String[][] {
            {"北京", "一号站", "A1"},
            {"北京", null, "A2"}, // middle null
            {"北京", "null", "A3"}, // the literal text "null"
            {"上海", "二号站", null}, // trailing null
            {"广州", null, null}, // two trailing nulls
          },
          true);
    }
    out.notes.add("tag rows: all set; middle null; literal \"null\"; one trailing null; two trailing nulls");
    return out;
  }

  static Written tableMulti(File dir) throws Exception {
    Written out = new Written("table_multi.tsfile", "table");
    try (TsFileWriter w = open(dir, out)) {
      writeTable(w, out, "风机", new String[] {"区域"},
          Arrays.asList(ms("功率", TSDataType.DOUBLE), ms("转速", TSDataType.INT32)),
          new String[][] {{"东区"}, {"西区"}}, true);
      writeTable(w, out, "水泵", new String[] {"站点", "编号"},
          Arrays.asList(ms("压力", TSDataType.FLOAT), ms("流量", TSDataType.DOUBLE),
              ms("备注", TSDataType.TEXT)),
          new String[][] {{"南站", "泵1"}, {"北站", "泵2"}}, true);
      writeTable(w, out, "meters", new String[] {"id"},
          Arrays.asList(ms("v", TSDataType.INT64)), new String[][] {{"m1"}, {"m2"}, {"m3"}}, true);
    }
    return out;
  }

  static Written unicodeQuoted(File dir) throws Exception {
    Written out = new Written("tree_quoted_unicode.tsfile", "tree");
    try (TsFileWriter w = open(dir, out)) {
      writeTreeDevice(w, out, "root.sg.`a.b`",
          Arrays.asList(ms("s1", TSDataType.INT32), ms("`温度`", TSDataType.DOUBLE)), false, 2, 1, true);
      writeTreeDevice(w, out, "root.`温度`.设备",
          Arrays.asList(ms("`a.b`", TSDataType.INT32), ms("压力", TSDataType.FLOAT)), false, 2, 1, true);
      writeTreeDevice(w, out, "root.sg.`设备.一号`.传感器",
          Arrays.asList(ms("电流", TSDataType.DOUBLE)), true, 2, 1, true);
    }
    out.notes.add("back-quoted device segments and measurements, as the path syntax allows");
    return out;
  }

  /** Only ASCII names: the tail variants cannot be told apart (nor UTF-8 from GBK). */
  static Written ascii(File dir) throws Exception {
    Written out = new Written("tree_ascii.tsfile", "tree");
    try (TsFileWriter w = open(dir, out)) {
      writeTreeDevice(w, out, "root.plant.line1.pump",
          Arrays.asList(ms("pressure", TSDataType.DOUBLE), ms("flow", TSDataType.FLOAT)), false, 2, 1, true);
      writeTreeDevice(w, out, "root.plant.line2.valve",
          Arrays.asList(ms("position", TSDataType.INT32), ms("open", TSDataType.BOOLEAN)), true, 2, 1, true);
    }
    out.notes.add("ASCII-only names, one non-aligned and one aligned device");
    return out;
  }

  static Written tenThousand(File dir) throws Exception {
    Written out = new Written("tree_10k_series.tsfile", "tree");
    try (TsFileWriter w = open(dir, out)) {
      for (int d = 0; d < 100; d++) {
        String dev = d < 50 ? String.format("root.sg.d%02d", d) : String.format("root.能源.设备%02d", d);
        List<MeasurementSchema> schemas = new ArrayList<>();
        for (int m = 0; m < 100; m++) {
          String name = (d + m) % 3 == 0 ? String.format("温度%02d", m) : String.format("s%02d", m);
          schemas.add(ms(name, TSDataType.BOOLEAN));
        }
        writeTreeDevice(w, out, dev, schemas, false, 1, 1, true);
      }
    }
    out.notes.add("100 devices x 100 BOOLEAN measurements, one point each");
    return out;
  }

  static Written multiChunk(File dir) throws Exception {
    Written out = new Written("multi_chunk.tsfile", "tree");
    out.chunksPerSeries = 3;
    List<MeasurementSchema> schemas = new ArrayList<>();
    for (int m = 0; m < 10; m++) {
      schemas.add(ms(m % 2 == 0 ? "测点" + m : "s" + m, TSDataType.INT32));
    }
    String[] plain = {"root.sg.m1", "root.sg.m2", "root.车间.m3", "root.车间.m4"};
    try (TsFileWriter w = open(dir, out)) {
      for (int round = 0; round < out.chunksPerSeries; round++) {
        for (String dev : plain) {
          writeTreeDevice(w, out, dev, schemas, false, 2, 1 + 10L * round, round == 0);
        }
        writeTreeDevice(w, out, "root.sg.对齐", schemas, true, 2, 1 + 10L * round, round == 0);
        w.flushAllChunkGroups(); // one chunk per series per round
      }
    }
    out.notes.add("4 non-aligned + 1 aligned device x 10 measurements, flushed after each of 3 rounds");
    return out;
  }

  static Written errorRate(File dir, String label, double rate) throws Exception {
    Written out = new Written("error_rate_" + label + ".tsfile", "tree");
    out.errorRate = rate;
    try (TsFileWriter w = open(dir, out)) {
      for (int d = 0; d < 6; d++) {
        List<MeasurementSchema> schemas = new ArrayList<>();
        for (int m = 0; m < 10; m++) {
          schemas.add(ms(d % 2 == 0 ? "电压" + m : "v" + m, TSDataType.FLOAT));
        }
        writeTreeDevice(w, out, (d < 3 ? "root.sg.e" : "root.北京.站") + d, schemas, false, 1, 1, true);
      }
    } finally {
      TSFileDescriptor.getInstance().getConfig().setBloomFilterErrorRate(DEFAULT_ERROR_RATE);
    }
    out.notes.add("60 series written with bloomFilterErrorRate = " + rate);
    return out;
  }

  static Written empty(File dir) throws Exception {
    Written out = new Written("empty.tsfile", "tree");
    try (TsFileWriter w = open(dir, out)) {
      // opened and closed with no data
    }
    out.notes.add("writer opened and closed without data");
    return out;
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: GenFixtures <output dir> <written.json>");
      System.exit(2);
    }
    File dir = new File(args[0]);
    dir.mkdirs();
    TSFileConfig conf = TSFileDescriptor.getInstance().getConfig();
    if (conf.getBloomFilterErrorRate() != DEFAULT_ERROR_RATE) {
      throw new IllegalStateException("unexpected default error rate " + conf.getBloomFilterErrorRate());
    }
    List<Written> all = new ArrayList<>();
    all.add(treeNonAligned(dir));
    all.add(treeAligned(dir));
    all.add(tableNullTags(dir));
    all.add(tableMulti(dir));
    all.add(unicodeQuoted(dir));
    all.add(ascii(dir));
    all.add(tenThousand(dir));
    all.add(multiChunk(dir));
    all.add(errorRate(dir, "0.01", 0.01));
    all.add(errorRate(dir, "0.1", 0.1));
    all.add(errorRate(dir, "0.001", 0.001));
    all.add(errorRate(dir, "0.5", 0.5));
    all.add(empty(dir));

    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("default_charset", Charset.defaultCharset().name());
    doc.put("file_encoding", System.getProperty("file.encoding"));
    List<Object> files = new ArrayList<>();
    for (Written w : all) {
      files.add(w.json());
    }
    doc.put("files", files);
    Files.write(new File(args[1]).toPath(),
        new GsonBuilder().serializeNulls().disableHtmlEscaping().create()
            .toJson(doc).getBytes(StandardCharsets.UTF_8));
    System.out.println("GenFixtures: " + all.size() + " files in " + dir + " (default charset "
        + Charset.defaultCharset() + ")");
  }
}
