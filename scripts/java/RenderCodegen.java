/*
 * Renders Apache TsFile's src/main/codegen FreeMarker templates the way the Maven
 * fmpp plugin (drill-fmpp-maven-plugin) would, so the Java sources can be built
 * with plain javac and Debian's libfreemarker-java.
 *
 * Usage: java -cp freemarker.jar:gson.jar:. RenderCodegen <config.fmpp> <templates dir> <output dir>
 *
 * Only what TsFile's templates use is supported: `tdd(...)` data files listed in the
 * config's `data:{ }` block (fmpp resolves them against the templates dir, its data
 * root) and the `pp.dropOutputFile` / `pp.changeOutputFile name=...` directives.
 * Anything else makes FreeMarker fail, so a template change cannot be silently
 * mis-rendered.
 */

import com.google.gson.Gson;
import com.google.gson.reflect.TypeToken;
import freemarker.core.Environment;
import freemarker.template.Configuration;
import freemarker.template.Template;
import freemarker.template.TemplateDirectiveBody;
import freemarker.template.TemplateDirectiveModel;
import freemarker.template.TemplateException;
import freemarker.template.TemplateModel;
import freemarker.template.TemplateModelException;
import freemarker.template.TemplateScalarModel;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class RenderCodegen {

  /** FreeMarker writes into this; fmpp's directives redirect it to another file or nowhere. */
  static final class SwitchingWriter extends Writer {
    private final Path outputRoot;
    private StringWriter current = new StringWriter();
    private Path currentPath;
    final List<Path> written = new ArrayList<>();

    SwitchingWriter(Path outputRoot, Path initial) {
      this.outputRoot = outputRoot;
      this.currentPath = initial;
    }

    void drop() {
      currentPath = null;
      current = new StringWriter();
    }

    void change(String name) throws IOException {
      commit();
      // fmpp: a leading "/" means relative to the output root
      currentPath = outputRoot.resolve(name.replaceFirst("^/+", ""));
      current = new StringWriter();
    }

    void commit() throws IOException {
      if (currentPath != null) {
        Files.createDirectories(currentPath.getParent());
        Files.write(currentPath, current.toString().getBytes(StandardCharsets.UTF_8));
        written.add(currentPath);
      }
      currentPath = null;
      current = new StringWriter();
    }

    @Override
    public void write(char[] cbuf, int off, int len) {
      current.write(cbuf, off, len);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: RenderCodegen <config.fmpp> <templates dir> <output dir>");
      System.exit(2);
    }
    Path config = Path.of(args[0]);
    Path templates = Path.of(args[1]);
    Path out = Path.of(args[2]);

    Map<String, Object> data = new HashMap<>();
    String cfg = stripComments(Files.readString(config, StandardCharsets.UTF_8));
    Matcher m = Pattern.compile("tdd\\(([^)]+)\\)").matcher(cfg);
    int tdds = 0;
    while (m.find()) {
      Path tdd = templates.resolve(m.group(1).trim()).normalize();
      String json = stripComments(Files.readString(tdd, StandardCharsets.UTF_8));
      Map<String, Object> part =
          new Gson().fromJson(json, new TypeToken<LinkedHashMap<String, Object>>() {}.getType());
      data.putAll(part);
      tdds++;
    }
    if (tdds == 0) {
      throw new IllegalStateException("no tdd(...) data file found in " + config);
    }

    Configuration fm = new Configuration(Configuration.VERSION_2_3_31);
    fm.setDirectoryForTemplateLoading(templates.toFile());
    fm.setDefaultEncoding("UTF-8");

    File[] ftls = templates.toFile().listFiles((d, n) -> n.endsWith(".ftl"));
    Arrays.sort(ftls);
    int files = 0;
    for (File ftl : ftls) {
      SwitchingWriter w = new SwitchingWriter(out, out.resolve(ftl.getName()));
      Map<String, Object> model = new HashMap<>(data);
      model.put("pp", ppHash(w));
      Template t = fm.getTemplate(ftl.getName());
      t.process(model, w);
      w.commit();
      files += w.written.size();
    }
    System.out.println("RenderCodegen: " + files + " files from " + ftls.length + " templates");
  }

  private static Map<String, Object> ppHash(SwitchingWriter w) {
    Map<String, Object> pp = new HashMap<>();
    pp.put(
        "dropOutputFile",
        (TemplateDirectiveModel) (Environment env, Map params, TemplateModel[] loopVars,
            TemplateDirectiveBody body) -> w.drop());
    pp.put(
        "changeOutputFile",
        (TemplateDirectiveModel) (Environment env, Map params, TemplateModel[] loopVars,
            TemplateDirectiveBody body) -> {
          Object name = params.get("name");
          if (!(name instanceof TemplateScalarModel)) {
            throw new TemplateModelException("pp.changeOutputFile needs name=\"...\"");
          }
          w.change(((TemplateScalarModel) name).getAsString());
        });
    return pp;
  }

  /** fmpp files may carry FreeMarker comments (the licence header). */
  private static String stripComments(String s) {
    return s.replaceAll("(?s)<#--.*?-->", "");
  }
}
