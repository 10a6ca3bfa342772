public class Nimsys {
    public static void main(String[] args) throws Exception {
        java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
        StringBuilder log = new StringBuilder();
        String s;
        int count = 0;
        while ((s = r.readLine()) != null && !s.startsWith("exit")) {
            count += s.length();
            log.append(count).append(':').append(s.toUpperCase()).append('\n');
            if (count > 1000) { log.setLength(0); count = 0; }
        }
        System.out.print(log);
    }
}
