// Dumps how a real JVM encodes every code point in each multi-byte charset, the
// source of the Rust encode tables in src/charset/data/ (scripts/gen-charset-tables.mjs
// runs this and compacts the output). One line per code point the charset maps:
//   "charset codepoint-hex bytes-hex"
// Code points that String.getBytes turns into '?' (unmappable) are left out, as are
// the surrogates (not code points of a well-formed string). U+0000..U+007F are
// included so the generator can check the charset is an ASCII superset.
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

public class JvmCharsetMap {
    static final String[] CHARSETS = {
        "GBK", "GB18030", "Big5", "x-windows-950", "Shift_JIS", "windows-31j", "EUC-JP", "EUC-KR", "x-windows-949",
    };

    public static void main(String[] args) throws Exception {
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.US_ASCII), 1 << 20);
        out.write("# " + System.getProperty("java.vendor") + " " + System.getProperty("java.version") + "\n");
        char[] hex = "0123456789abcdef".toCharArray();
        for (String name : CHARSETS) {
            Charset cs = Charset.forName(name);
            for (int cp = 0; cp <= 0x10FFFF; cp++) {
                if (cp >= 0xD800 && cp <= 0xDFFF) continue;
                byte[] bytes = new String(Character.toChars(cp)).getBytes(cs);
                if (cp >= 0x80 && bytes.length == 1 && bytes[0] == '?') continue;
                StringBuilder line = new StringBuilder(name).append(' ').append(Integer.toHexString(cp)).append(' ');
                for (byte b : bytes) line.append(hex[(b >> 4) & 15]).append(hex[b & 15]);
                out.write(line.append('\n').toString());
            }
        }
        out.flush();
    }
}
