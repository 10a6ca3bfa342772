import java.util.Scanner;

/** Starter code handed out by the course: a reader of commands. */
public class Starter {
    private final Scanner scanner = new Scanner(System.in);

    public String nextCommand() {
        System.out.print("$");
        if (!scanner.hasNextLine()) {
            return "exit";
        }
        String line = scanner.nextLine().trim();
        if (line.isEmpty()) {
            return nextCommand();
        }
        return line;
    }

    public static int[] parseNumbers(String text) {
        String[] parts = text.split(",");
        int[] numbers = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            numbers[i] = Integer.parseInt(parts[i].trim());
        }
        return numbers;
    }
}
