import java.util.ArrayList;
import java.util.List;

public class Nimsys {
    private final List<String> players = new ArrayList<>();
    private int stones;
    private int bound;

    public static void main(String[] args) {
        new Nimsys().loop();
    }

    void loop() {
        Starter reader = new Starter();
        while (true) {
            String command = reader.nextCommand();
            if (command.equals("exit")) {
                System.out.println();
                return;
            }
            String[] words = command.split(" ", 2);
            if (words[0].equals("addplayer")) {
                players.add(words[1]);
            } else if (words[0].equals("startgame")) {
                int[] numbers = Starter.parseNumbers(words[1]);
                stones = numbers[0];
                bound = numbers[1];
                play();
            } else {
                System.out.println("'" + words[0] + "' is not a valid command.");
            }
        }
    }

    int winningMove() {
        int target = (stones - 1) % (bound + 1);
        return target == 0 ? 1 : target;
    }

    void play() {
        int turn = 0;
        while (stones > 0) {
            int take = Math.min(winningMove(), stones);
            stones -= take;
            System.out.println(players.get(turn % players.size()) + " removes " + take);
            turn++;
        }
        System.out.println("Game Over");
    }
}
