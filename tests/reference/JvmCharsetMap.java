// Prints how a real JVM encodes every BMP code point >= U+0080 in each multi-byte
// charset: "charset codepoint hexbytes" per line. scripts/gen-charset-overrides.mjs
// diffs this against the platform-derived tables to produce js/charset-overrides.js.
public class JvmCharsetMap {
    public static void main(String[] args) throws Exception {
        StringBuilder out = new StringBuilder();
        for (String cs : new String[] {"GBK", "GB18030", "Big5", "Shift_JIS", "EUC-KR"}) {
            for (int cp = 0x80; cp < 0x10000; cp++) {
                if (cp >= 0xD800 && cp <= 0xDFFF) continue;
                out.append(cs).append(' ').append(cp).append(' ');
                for (byte b : String.valueOf((char) cp).getBytes(cs)) out.append(String.format("%02x", b));
                out.append('\n');
            }
        }
        System.out.print(out);
    }
}
