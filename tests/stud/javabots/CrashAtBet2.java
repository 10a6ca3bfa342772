import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;

/**
 * A player like a real student's Part 1: it logs in and answers bet1 (all in on a spade in
 * the hole, else it matches or folds), but reads bet2's fields one place off and dies with a
 * NumberFormatException, whose stack trace goes to stderr.
 */
public class CrashAtBet2 {
    public static void main(String[] args) throws IOException {
        Socket socket = new Socket(args[0], Integer.parseInt(args[1]));
        DataInputStream dis = new DataInputStream(socket.getInputStream());
        DataOutputStream dos = new DataOutputStream(socket.getOutputStream());
        while (true) {
            String command = dis.readUTF();
            String[] fields = command.split(":");
            if (command.equals("login")) {
                dos.writeUTF("crash:Crash");
            } else if (fields[0].equals("bet1")) {
                int stack = Integer.parseInt(fields[1]);
                int toMatch = Integer.parseInt(fields[3]);
                if (stack < toMatch) {
                    dos.writeUTF("fold");
                } else if (fields[4].endsWith("S")) {
                    dos.writeUTF("bet:" + Math.min(stack, toMatch + 10));
                } else {
                    dos.writeUTF("bet:" + toMatch);
                }
            } else if (fields[0].equals("bet2")) {
                int toMatch = Integer.parseInt(fields[7]);
                dos.writeUTF("bet:" + toMatch);
            } else if (fields[0].equals("done")) {
                socket.close();
                return;
            }
            dos.flush();
        }
    }
}
