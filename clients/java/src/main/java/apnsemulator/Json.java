package apnsemulator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON for the admin API, without a library: objects read as {@code Map<String, Object>}, arrays
 * as {@code List<Object>}, numbers as {@code Long} when whole and {@code Double} otherwise.
 */
public final class Json {
    private final String text;
    private int at;

    private Json(String text) {
        this.text = text;
    }

    /** Parses one JSON value. */
    public static Object parse(String text) {
        Json reader = new Json(text);
        Object value = reader.value();
        reader.space();
        if (reader.at != text.length()) throw reader.error("text after the value");
        return value;
    }

    /** Writes maps, lists, strings, numbers, booleans and null as JSON. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!first) out.append(',');
                first = false;
                writeString(String.valueOf(entry.getKey()), out);
                out.append(':');
                write(entry.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) out.append(',');
                write(list.get(i), out);
            }
            out.append(']');
        } else if (value instanceof Number || value instanceof Boolean) {
            out.append(value);
        } else {
            writeString(value.toString(), out);
        }
    }

    private static void writeString(String value, StringBuilder out) {
        out.append('"');
        for (char c : value.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        out.append('"');
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("not JSON at " + this.at + ": " + what);
    }

    private void space() {
        while (this.at < this.text.length() && Character.isWhitespace(this.text.charAt(this.at))) this.at++;
    }

    private Object value() {
        this.space();
        if (this.at >= this.text.length()) throw this.error("end of text");
        char c = this.text.charAt(this.at);
        switch (c) {
            case '{': return this.object();
            case '[': return this.array();
            case '"': return this.string();
            case 't': return this.word("true", Boolean.TRUE);
            case 'f': return this.word("false", Boolean.FALSE);
            case 'n': return this.word("null", null);
            default: return this.number();
        }
    }

    private Object word(String word, Object value) {
        if (!this.text.startsWith(word, this.at)) throw this.error("expected " + word);
        this.at += word.length();
        return value;
    }

    private Map<String, Object> object() {
        Map<String, Object> members = new LinkedHashMap<>();
        this.at++;
        this.space();
        if (this.text.charAt(this.at) == '}') {
            this.at++;
            return members;
        }
        while (true) {
            this.space();
            String key = this.string();
            this.space();
            if (this.text.charAt(this.at++) != ':') throw this.error("expected :");
            members.put(key, this.value());
            this.space();
            char next = this.text.charAt(this.at++);
            if (next == '}') return members;
            if (next != ',') throw this.error("expected , or }");
        }
    }

    private List<Object> array() {
        List<Object> items = new ArrayList<>();
        this.at++;
        this.space();
        if (this.text.charAt(this.at) == ']') {
            this.at++;
            return items;
        }
        while (true) {
            items.add(this.value());
            this.space();
            char next = this.text.charAt(this.at++);
            if (next == ']') return items;
            if (next != ',') throw this.error("expected , or ]");
        }
    }

    private String string() {
        if (this.text.charAt(this.at) != '"') throw this.error("expected a string");
        StringBuilder out = new StringBuilder();
        this.at++;
        while (true) {
            char c = this.text.charAt(this.at++);
            if (c == '"') return out.toString();
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char escaped = this.text.charAt(this.at++);
            switch (escaped) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    out.append((char) Integer.parseInt(this.text.substring(this.at, this.at + 4), 16));
                    this.at += 4;
                }
                default -> out.append(escaped);
            }
        }
    }

    private Object number() {
        int start = this.at;
        while (this.at < this.text.length() && "+-0123456789.eE".indexOf(this.text.charAt(this.at)) >= 0) this.at++;
        String number = this.text.substring(start, this.at);
        if (number.isEmpty()) throw this.error("unexpected character");
        if (number.contains(".") || number.contains("e") || number.contains("E")) return Double.parseDouble(number);
        return Long.parseLong(number);
    }
}
