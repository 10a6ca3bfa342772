import java.util.HashMap;
import java.util.Map;

public class Nimsys {
    static Map<String, Integer> wins = new HashMap<>();

    public static void main(String[] args) {
        Starter in = new Starter();
        for (String c = in.nextCommand(); !c.equals("exit"); c = in.nextCommand()) {
            switch (c.split(" ")[0]) {
                case "addplayer" -> wins.put(c.substring(10), 0);
                case "rankings" -> wins.forEach((k, v) -> System.out.printf("%3d | %s%n", v, k));
                default -> System.out.printf("'%s' is not a valid command.%n", c);
            }
        }
        System.out.println();
    }
}
