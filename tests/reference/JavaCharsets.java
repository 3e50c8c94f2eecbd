// Records what a real JVM's String.getBytes(charset) produces for the sample paths,
// the ground truth for path bytes under non-UTF-8 default charsets (docs/writers.md §4).
// Regenerate: javac -d /tmp tests/reference/JavaCharsets.java && java -cp /tmp JavaCharsets > tests/fixtures/java_charsets.json
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

public class JavaCharsets {
    static final String[] CHARSETS = {
        "UTF-8", "GBK", "GB18030", "Big5", "x-windows-950", "Shift_JIS", "windows-31j", "EUC-JP", "EUC-KR", "x-windows-949",
        "windows-1252", "ISO-8859-1",
    };
    static final String[] SAMPLES = {
        "root.sg.d1.s1", "root.sg.d1.温度", "root.设备.传感器.湿度", "root.溫度.電壓", "root.日本語.センサー.ﾃｽﾄ",
        "root.한국어.온도", "root.café.señal.€", "root.naïve.Ÿ.ÿ", "root.🔥.温度℃", "root.ĀāŁ.Ωλ", "똠", "\u00a5\u203e\\~",
        "root.能耗表🔥.北京.泵🚀1.温度℃", "root.ÄÖÜß.½¼", "root.Ελληνικά.Русский", "root.中文‧繁體．全角", "\uE000\uE5E5\uFFFD",
        // Supplementary planes: emoji, CJK Ext-B (one '?' per code point where unmappable).
        "root.😀.𠀋𠮷野家.🚀", "𝄞\uD84C\uDFB4\uDB40\uDC01\uDBFF\uDFFD", "\uD800\uDC00x\uDBFF\uDFFF",
        // Where the Microsoft variants and EUC-JP's JIS X 0212 differ from the base charsets.
        "①㈱髙﨑\u2015\u2014\u301c\uff5e\u2225\u2016\u2212\uff0d\u00a2\u00a3\u00ac", "丂丄丅鷗", "€\u0080\u0081\u009f\u00a0",
        "똠똡뛰\uac02\uac03", "\u256d\u256e\u2570\u256f\u2574\u2550\u5341\u5345\uff3c\uffe3\u00af",
    };

    static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    public static void main(String[] args) throws Exception {
        StringBuilder out = new StringBuilder();
        out.append("{\n  \"jvm\": ").append(json(System.getProperty("java.vendor") + " " + System.getProperty("java.version")));
        out.append(",\n  \"cases\": [\n");
        boolean first = true;
        for (String cs : CHARSETS) {
            for (String s : SAMPLES) {
                StringBuilder hex = new StringBuilder();
                for (byte b : s.getBytes(cs)) hex.append(String.format("%02x", b));
                out.append(first ? "" : ",\n").append("    {\"charset\": ").append(json(cs)).append(", \"text\": ")
                   .append(json(s)).append(", \"bytes\": \"").append(hex).append("\"}");
                first = false;
            }
        }
        // Whole-BMP check: SHA-256 of getBytes over each 4096-code-point block (surrogates skipped).
        out.append("\n  ],\n  \"bmpBlocks\": {");
        first = true;
        for (String cs : CHARSETS) {
            out.append(first ? "\n" : ",\n").append("    ").append(json(cs)).append(": [");
            first = false;
            for (int block = 0; block < 16; block++) {
                StringBuilder text = new StringBuilder();
                for (int cp = block * 4096; cp < (block + 1) * 4096; cp++) {
                    if (cp < 0xD800 || cp > 0xDFFF) text.append((char) cp);
                }
                byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(cs));
                StringBuilder hex = new StringBuilder();
                for (byte b : digest) hex.append(String.format("%02x", b));
                out.append(block == 0 ? "" : ", ").append('"').append(hex).append('"');
            }
            out.append("]");
        }
        // Supplementary planes 1-16: SHA-256 of getBytes over each whole plane.
        out.append("\n  },\n  \"planes\": {");
        first = true;
        for (String cs : CHARSETS) {
            out.append(first ? "\n" : ",\n").append("    ").append(json(cs)).append(": [");
            first = false;
            for (int plane = 1; plane <= 16; plane++) {
                StringBuilder text = new StringBuilder();
                for (int cp = plane << 16; cp < (plane + 1) << 16; cp++) text.appendCodePoint(cp);
                byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(cs));
                StringBuilder hex = new StringBuilder();
                for (byte b : digest) hex.append(String.format("%02x", b));
                out.append(plane == 1 ? "" : ", ").append('"').append(hex).append('"');
            }
            out.append("]");
        }
        // Lone surrogates (no code point; JS strings may hold them): text as UTF-16 code units in hex.
        out.append("\n  },\n  \"loneSurrogates\": [");
        first = true;
        for (String cs : CHARSETS) {
            for (String s : new String[] {"a\uD800b", "\uDC00\uD83D\uDD25\uDBFF", "\uD83D\u6E29\uDD25"}) {
                StringBuilder units = new StringBuilder();
                for (char c : s.toCharArray()) units.append(String.format("%04x", (int) c));
                StringBuilder hex = new StringBuilder();
                for (byte b : s.getBytes(cs)) hex.append(String.format("%02x", b));
                out.append(first ? "\n" : ",\n").append("    {\"charset\": ").append(json(cs)).append(", \"utf16\": \"")
                   .append(units).append("\", \"bytes\": \"").append(hex).append("\"}");
                first = false;
            }
        }
        // The names Charset.forName accepts for each charset besides its own.
        out.append("\n  ],\n  \"aliases\": {");
        first = true;
        for (String cs : CHARSETS) {
            out.append(first ? "\n" : ",\n").append("    ").append(json(cs)).append(": [");
            first = false;
            String sep = "";
            for (String alias : new java.util.TreeSet<>(Charset.forName(cs).aliases())) {
                out.append(sep).append(json(alias));
                sep = ", ";
            }
            out.append("]");
        }
        out.append("\n  }\n}\n");
        System.out.print(new String(out.toString().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
    }
}
